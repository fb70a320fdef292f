"""One clock for a run: the prompt's "today" and the date tools read the same one, so a test or a replayed
run can fix the date for both."""
from __future__ import annotations

from datetime import date, datetime, timezone
from typing import Callable


class Clock:
    def __init__(self, now: Callable[[], datetime] | None = None):
        self._now = now or (lambda: datetime.now(timezone.utc))

    def now(self) -> datetime:
        """The current instant, timezone-aware."""
        return self._now()

    def today(self) -> date:
        """Today in this machine's local timezone."""
        return self.now().astimezone().date()


def fixed_clock(instant: datetime) -> Clock:
    return Clock(lambda: instant)


SYSTEM_CLOCK = Clock()
