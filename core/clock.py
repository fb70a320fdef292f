"""One clock for a run: the prompt's "today" and the date tools read the same one, so a test or a replayed
run can fix the date for both.

The system prompt states today's date, so the model's greedy path changes with the date: a run or a benchmark
is reproducible only with the date pinned (PONDER_TODAY=YYYY-MM-DD: the clock then reads noon UTC that day).
"""
from __future__ import annotations

import contextlib
import os
from datetime import date, datetime, time, timezone
from typing import Callable, Iterator

from core.settings import load_settings


def _system_now() -> datetime:
    pinned = load_settings().today
    if pinned is not None:
        return datetime.combine(pinned, time(12), tzinfo=timezone.utc)
    return datetime.now(timezone.utc)


class Clock:
    def __init__(self, now: Callable[[], datetime] | None = None):
        self._now = now or _system_now

    def now(self) -> datetime:
        """The current instant, timezone-aware."""
        return self._now()

    def today(self) -> date:
        """Today in this machine's local timezone."""
        return self.now().astimezone().date()


def fixed_clock(instant: datetime) -> Clock:
    return Clock(lambda: instant)


SYSTEM_CLOCK = Clock()


@contextlib.contextmanager
def pinned_today(day: str) -> Iterator[None]:
    """PONDER_TODAY=day for the duration (the system clock reads it), restored after."""
    before = os.environ.get("PONDER_TODAY")
    os.environ["PONDER_TODAY"] = day
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("PONDER_TODAY", None)
        else:
            os.environ["PONDER_TODAY"] = before
