"""``python -m sftwave``: see ``sftwave.cli``."""

from .cli import main

raise SystemExit(main())
