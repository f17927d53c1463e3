"""compoworld-dsl: a language and compiler for practice worlds for tool-using agents.
This package root only names the version; the layers live in subpackages."""

__version__ = "0.1.0"
