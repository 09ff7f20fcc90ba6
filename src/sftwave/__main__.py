"""``python -m sftwave``: see :mod:`sftwave.cli`."""

from .cli import main

raise SystemExit(main())
