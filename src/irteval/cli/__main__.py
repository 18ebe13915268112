"""``python -m irteval.cli``: the same as the ``irteval`` command."""

import sys

from .commands import main

sys.exit(main())
