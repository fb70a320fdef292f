"""Where Ponder keeps its data: $PONDER_HOME, default ~/.ponder."""
from __future__ import annotations

import os
from pathlib import Path

from core.settings import load_settings


class StorageError(RuntimeError):
    """A data directory or store Ponder cannot use (not a directory, not writable, another program's or another
    version's data). The message, one line naming the path, is for people: the CLI prints it as is."""


def ponder_home() -> Path:
    return writable_dir(load_settings().ponder_home, "PONDER_HOME")


def writable_dir(path: Path, what: str) -> Path:
    """path, created if missing; a StorageError naming `what` if it cannot be a directory Ponder writes to."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise StorageError(f"{what} {path} is not a directory (a file is in its place)") from None
    except OSError as exc:
        raise StorageError(f"{what} {path} is not writable: {exc.strerror or exc}") from None
    if not path.is_dir():  # a symlink to a file
        raise StorageError(f"{what} {path} is not a directory (a file is in its place)")
    if not os.access(path, os.W_OK | os.X_OK):
        raise StorageError(f"{what} {path} is not writable: permission denied")
    return path
