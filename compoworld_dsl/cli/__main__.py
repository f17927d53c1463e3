"""`python -m compoworld_dsl.cli` is `worldc`."""

import sys

from .commands import main

sys.exit(main())
