"""The Z3 back end: every tool as a transition over a bounded symbolic state.
Built from the same typed model as the Python services; it never runs generated code."""
