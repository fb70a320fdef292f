"""Time and date tools: the current time in a timezone, and the difference between two dates (e.g. an age)."""
from __future__ import annotations

import calendar
import functools
import re
from datetime import date, datetime, timedelta, tzinfo
from datetime import timezone as fixed_timezone
from typing import Callable
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from core.clock import SYSTEM_CLOCK, Clock
from tools.base import ToolError

TIMEZONE_EXAMPLE = "use an IANA name such as 'Europe/Paris', 'America/New_York' or 'UTC', or an offset like 'UTC+2'"


def today() -> date:
    return SYSTEM_CLOCK.today()


@functools.lru_cache(maxsize=1)
def _zone_names() -> dict[str, str]:
    """Lower-cased lookup keys -> canonical IANA names: full names and unique city parts ('new_york')."""
    names = available_timezones()
    lookup = {n.lower(): n for n in names}
    cities: dict[str, list[str]] = {}
    for n in names:
        cities.setdefault(n.rsplit("/", 1)[-1].lower(), []).append(n)
    for city, matches in cities.items():
        if len(matches) == 1:
            lookup.setdefault(city, matches[0])
    return lookup


_OFFSET = re.compile(r"^(?:utc|gmt)?\s*([+-])\s*(\d{1,2})(?::?(\d{2}))?$", re.IGNORECASE)


def _parse_timezone(name: str) -> tuple[tzinfo | None, str]:
    """(tzinfo, label); tzinfo None means the machine's local zone."""
    text = name.strip()
    if text.lower() in ("", "local", "localtime"):
        return None, "local"
    if text.lower() in ("utc", "gmt", "z", "zulu"):
        return fixed_timezone.utc, "UTC"
    offset = _OFFSET.match(text)
    if offset:
        sign, hours, minutes = offset.group(1), int(offset.group(2)), int(offset.group(3) or 0)
        if hours > 14 or minutes > 59:
            raise ToolError(f"offset {text!r} is out of range (-14:00 to +14:00); {TIMEZONE_EXAMPLE}")
        delta = timedelta(hours=hours, minutes=minutes) * (-1 if sign == "-" else 1)
        return fixed_timezone(delta), f"UTC{sign}{hours:02d}:{minutes:02d}"
    key = _zone_names().get(text.lower().replace(" ", "_"))
    if key:
        try:
            return ZoneInfo(key), key
        except (ZoneInfoNotFoundError, ValueError):
            pass
    hint = ("; current_time takes a timezone, not a date: for the time between dates use date_diff"
            if re.search(r"\d{4}", text) else "")
    raise ToolError(f"unknown timezone {text!r}; {TIMEZONE_EXAMPLE}{hint}")


def _current_time(clock: Clock, timezone: str = "local") -> str:
    """The current date and time (ISO 8601 and weekday) in a timezone.

    Input: an IANA timezone name like 'Europe/Paris', 'America/New_York', 'Asia/Tokyo', 'UTC', an offset like
    'UTC+5:30', or nothing / 'local' for this machine's local time.
    """
    tz, label = _parse_timezone(timezone)
    now = clock.now().astimezone(tz).replace(microsecond=0)
    zone = now.tzname() or label
    return f"{now.isoformat()} ({now.strftime('%A')}), timezone {label}" + (f" ({zone})" if zone != label else "")


_DATE_FORMATS = ("%B %d %Y", "%b %d %Y", "%d %B %Y", "%d %b %Y", "%Y %B %d", "%Y %b %d", "%B %Y %d")
_ORDINAL = re.compile(r"(?<=\d)(st|nd|rd|th)\b", re.IGNORECASE)
_NUMERIC = re.compile(r"^(\d{1,4})[-/.](\d{1,2})[-/.](\d{1,4})$")


def parse_date(text: str, clock: Clock = SYSTEM_CLOCK) -> date:
    """ISO (1847-02-11), 'February 11, 1847', '11 Feb 1847', '11th February 1847', 'today'. Else ToolError."""
    today = clock.today
    raw = text.strip().strip("\"'")
    lowered = raw.lower()
    if lowered in ("today", "now", ""):
        return today()
    if lowered == "yesterday":
        return today() - timedelta(days=1)
    if lowered == "tomorrow":
        return today() + timedelta(days=1)
    iso = re.match(r"^(\d{4}-\d{2}-\d{2})(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$", raw)
    if iso:
        try:
            return date.fromisoformat(iso.group(1))
        except ValueError as exc:
            raise ToolError(f"invalid date {raw!r}: {exc}") from None
    numeric = _NUMERIC.match(raw)
    if numeric:
        first, second, third = numeric.groups()
        if len(first) != 4:
            raise ToolError(f"ambiguous date {raw!r} (day/month order differs by country); "
                            "write it as YYYY-MM-DD, e.g. 1847-02-11")
        try:
            return date(int(first), int(second), int(third))
        except ValueError as exc:
            raise ToolError(f"invalid date {raw!r}: {exc}") from None
    words = _ORDINAL.sub("", raw)
    words = re.sub(r"[,.]", " ", words)
    words = re.sub(r"\s+", " ", words).strip()
    for fmt in _DATE_FORMATS:
        try:
            return datetime.strptime(words, fmt).date()
        except ValueError:
            continue
    raise ToolError(f"cannot read the date {raw!r}; use YYYY-MM-DD (e.g. 1847-02-11), 'February 11, 1847', "
                    "'11 Feb 1847' or 'today'")


def _add_months(d: date, months: int) -> date:
    year, month = divmod(d.month - 1 + months, 12)
    year += d.year
    return d.replace(year=year, month=month + 1, day=min(d.day, calendar.monthrange(year, month + 1)[1]))


def _plural(n: int, unit: str) -> str:
    return f"{n} {unit}" if n == 1 else f"{n} {unit}s"


def _split_range(start: str) -> tuple[str, str] | None:
    """'1847-02-11 to 1931-10-18' (or '1847-02-11, 2026-12-03') given as one input -> the two dates."""
    for sep in (" to ", " until ", " and ", "|", " - "):
        if sep in start:
            left, right = start.split(sep, 1)
            return left, right
    # A comma also sits inside 'February 11, 1847': split there only if both sides read as dates or years.
    for at in [m.start() for m in re.finditer(",", start)]:
        left, right = start[:at], start[at + 1:]
        if all(reads_as_date(side) for side in (left, right)):
            return left, right
    return None


_YEAR = re.compile(r"^(\d{3,4})(?:\s*(AD|CE))?$", re.IGNORECASE)


def _bare_year(text: str) -> int | None:
    year = _YEAR.match(text.strip().strip("\"'"))
    return int(year.group(1)) if year else None


def _year_or_date(text: str, clock: Clock = SYSTEM_CLOCK) -> int | date:
    """A bare year as an int, else a date (ToolError if it is neither)."""
    year = _bare_year(text)
    return year if year is not None else parse_date(text, clock)


def reads_as_date(text: str) -> bool:
    """Whether a text is a bare year or a date date_diff reads."""
    try:
        _year_or_date(text)
    except ToolError:
        return False
    return True


def _years_only(first: str, last: str, clock: Clock) -> str | None:
    """The answer when one side is a bare year (sources often give only the years of birth and death)."""
    if all(_bare_year(side) is None for side in (first, last)):
        return None
    ends = [_year_or_date(side, clock) for side in (first, last)]
    a_year, b_year = (end.year if isinstance(end, date) else end for end in ends)
    span = abs(b_year - a_year)
    shown = [end.isoformat() if isinstance(end, date) else str(end) for end in ends]
    return (f"start {shown[0]} to end {shown[1]}: {span} years by the years alone; with the full dates it is "
            f"{span} or {max(span - 1, 0)} years (whether the anniversary has passed). Give both full dates for "
            "the exact span.")


def is_today(text: str) -> bool:
    """Whether a date_diff end means today (as an end left out does)."""
    return text.strip().strip("\"'").lower() in ("today", "now", "")


def date_diff_ends(start: str, end: str = "today") -> tuple[str, str]:
    """The two ends date_diff measures between, from its arguments: a range given as one input ('1564, 1642',
    '1847-02-11 to 1931-10-18') is split; otherwise the end is as given (today when left out)."""
    if is_today(end) and (pair := _split_range(start)):
        return pair
    return start, end


def _date_diff(clock: Clock, start: str, end: str = "today") -> str:
    """Time between two dates in years, months and days, plus total days (e.g. someone's age).

    Input: {"start": "1847-02-11", "end": "1931-10-18"}, or just a start date to count up to today.
    Dates: YYYY-MM-DD, 'February 11, 1847', '11 Feb 1847' or 'today'. To get an age today, give the birth date.
    """
    start, end = date_diff_ends(start, end)
    if (by_years := _years_only(start, end, clock)) is not None:
        return by_years
    first, last = parse_date(start, clock), parse_date(end, clock)
    earlier, later = sorted((first, last))
    months = (later.year - earlier.year) * 12 + later.month - earlier.month
    if _add_months(earlier, months) > later:
        months -= 1
    days = (later - _add_months(earlier, months)).days
    years, months = divmod(months, 12)
    span = f"{_plural(years, 'year')}, {_plural(months, 'month')}, {_plural(days, 'day')}"
    total = (last - first).days
    header = f"start {first.isoformat()} to end {last.isoformat()}"
    if last < first:
        return f"{header}: the end is {span} before the start ({total:,} days)"
    return f"{header}: {span} ({total:,} days)"


def clock_tools(clock: Clock = SYSTEM_CLOCK) -> tuple[Callable[..., str], Callable[..., str]]:
    """current_time and date_diff reading `clock`: give the agent the same clock, and the prompt's date and the
    tools' "today" agree."""
    def current_time(timezone: str = "local") -> str:
        return _current_time(clock, timezone)

    def date_diff(start: str, end: str = "today") -> str:
        return _date_diff(clock, start, end)

    current_time.__doc__, date_diff.__doc__ = _current_time.__doc__, _date_diff.__doc__
    return current_time, date_diff


current_time, date_diff = clock_tools()  # on the system clock
