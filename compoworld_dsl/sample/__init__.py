"""Task sampling: walks over the dependency graph, Z3 bindings and proofs, replay, checkers.
Reads the typed model, the compiled world and the Z3 encoding; it never parses text itself."""

# The task kinds a task is tagged with (DESIGN.md §5), in the order tasks list them. Here, not in
# sampler.py, so that `worldc --help` can list them without loading the solver.
CAPABILITIES = (
    "sequential-dependency",
    "cross-env-constraint",
    "conditional-branching",
    "ranked-selection",
    "data-transformation",
    "idempotency-check",
    "ordering",
)
