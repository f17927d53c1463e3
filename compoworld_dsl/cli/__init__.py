"""`worldc`, the command line: `commands.py` parses options and calls the library; `common.py` holds
what the verbs share. Importing the package loads neither, so a verb can import `common` freely."""


def main(argv: list[str] | None = None) -> int:
    """The `worldc` entry point (loaded on call: see the module's docstring)."""
    from .commands import main as run

    return run(argv)
