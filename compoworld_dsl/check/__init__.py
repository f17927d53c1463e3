"""The check layer: load modules, resolve names across files and services, type-check,
and produce the typed model that every back end reads. It never generates code."""

from .loader import Program, check_paths, check_source

__all__ = ["Program", "check_paths", "check_source"]
