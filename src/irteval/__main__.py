"""``python -m irteval``: the same as the ``irteval`` command."""

import sys

from .cli.commands import main

sys.exit(main())
