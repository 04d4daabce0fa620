"""`python -m interpreter` is the `truco` command."""
import sys

from interpreter.cli import main

sys.exit(main())
