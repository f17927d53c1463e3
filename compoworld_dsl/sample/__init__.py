"""Task sampling: walks over the dependency graph, Z3 bindings and proofs, replay, checkers.
Reads the typed model, the compiled world and the Z3 encoding; it never parses text itself."""
