"""The syntax layer: grammar loading, parsing into the AST, and canonical formatting.
It knows nothing of types or back ends; those live in `check` and above."""
