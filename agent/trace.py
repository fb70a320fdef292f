"""JSONL traces: every event of a run (prompts, raw outputs, parses, tool I/O, timings), one line each.

Written and flushed per event, so a crashed or killed run still leaves its trace up to the last step.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator, TextIO, TypeVar

from pydantic import BaseModel

from core.secrets import redact

E = TypeVar("E", bound=BaseModel)


class TraceWriter:
    def __init__(self, path: Path | None):
        self.path = path
        self._file: TextIO | None = None
        if path:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._file = path.open("a", encoding="utf-8")

    @classmethod
    def open(cls, trace_dir: Path | None, run_id: str) -> "TraceWriter":
        return cls(Path(trace_dir) / run_id / "trace.jsonl" if trace_dir else None)

    def write(self, event: BaseModel) -> None:
        if self._file:
            # Each step is stored once, in its step_recorded event: the final result refers to them.
            exclude = {"result": {"steps"}} if getattr(event, "type", "") == "final" else None
            self._file.write(redact(event.model_dump_json(exclude=exclude)) + "\n")
            self._file.flush()

    def log(self, event: E) -> E:
        """Write the event and return it: the loop yields what it logs."""
        self.write(event)
        return event

    def close(self) -> None:
        if self._file:
            self._file.close()
            self._file = None


def read_trace(path: str | Path) -> Iterator[dict]:
    """Events of a trace file; a torn last line (killed mid-write) is skipped, other bad lines raise ValueError."""
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            yield json.loads(line)
        except (json.JSONDecodeError, RecursionError):  # RecursionError: nested deeper than json can read
            if number == len(lines):
                return
            raise ValueError(f"{path}:{number}: not a JSON line") from None
