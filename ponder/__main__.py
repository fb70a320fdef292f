"""`python -m ponder ...` is the `ponder` command."""
from ponder.cli import run

run()
