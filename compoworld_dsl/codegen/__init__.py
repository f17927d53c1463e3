"""Back ends that read the typed model: Python services (and, later, the graph and Z3).
They never parse text and never change the model."""
