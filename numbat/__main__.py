"""`python -m numbat`: the `numbat` command line."""

from .cli import main

raise SystemExit(main())
