"""`python -m compoworld_dsl` is `worldc`."""

import sys

from .cli import main

sys.exit(main())
