"""Where Ponder keeps its data: $PONDER_HOME, default ~/.ponder."""
from __future__ import annotations

import os
from pathlib import Path


def ponder_home() -> Path:
    home = Path(os.environ.get("PONDER_HOME") or Path.home() / ".ponder").expanduser()
    home.mkdir(parents=True, exist_ok=True)
    return home
