"""Where Ponder keeps its data: $PONDER_HOME, default ~/.ponder."""
from __future__ import annotations

from pathlib import Path

from core.settings import load_settings


def ponder_home() -> Path:
    home = load_settings().ponder_home
    home.mkdir(parents=True, exist_ok=True)
    return home
