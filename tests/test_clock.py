"""current_time and date_diff, against a fixed clock and against the real one."""
from __future__ import annotations

import calendar
import re
from datetime import date, datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.clock import fixed_clock
from tools.base import ToolError, ToolRegistry
from tools.clock import clock_tools, current_time, date_diff, parse_date

WINTER = datetime(2026, 12, 2, 17, 30, 5, tzinfo=timezone.utc)   # a Wednesday
SUMMER = datetime(2026, 7, 1, 23, 0, 0, tzinfo=timezone.utc)     # a Wednesday, 23:00 UTC


@pytest.fixture
def frozen(monkeypatch):
    """Rebinds this module's current_time / date_diff to tools reading a fixed clock."""
    def freeze(instant: datetime) -> None:
        fixed_current_time, fixed_date_diff = clock_tools(fixed_clock(instant))
        monkeypatch.setitem(globals(), "current_time", fixed_current_time)
        monkeypatch.setitem(globals(), "date_diff", fixed_date_diff)
    freeze(WINTER)
    return freeze


def test_current_time_in_named_zones(frozen):
    assert current_time("UTC").startswith("2026-12-02T17:30:05+00:00 (Wednesday)")
    assert current_time("Europe/Paris").startswith("2026-12-02T18:30:05+01:00 (Wednesday)")
    assert current_time("America/New_York").startswith("2026-12-02T12:30:05-05:00 (Wednesday)")
    assert current_time("Asia/Tokyo").startswith("2026-12-03T02:30:05+09:00 (Thursday)")  # past midnight


def test_daylight_saving_is_applied(frozen):
    frozen(SUMMER)
    assert current_time("Europe/Paris").startswith("2026-07-02T01:00:00+02:00 (Thursday)")
    assert current_time("America/New_York").startswith("2026-07-01T19:00:00-04:00 (Wednesday)")


def test_forgiving_zone_spellings(frozen):
    assert "America/New_York" in current_time("america/new_york")
    assert "America/New_York" in current_time("New York")
    assert "Asia/Tokyo" in current_time("Tokyo")
    assert current_time("UTC+5:30").startswith("2026-12-02T23:00:05+05:30")
    assert current_time("GMT-3").startswith("2026-12-02T14:30:05-03:00")


def test_local_time_uses_the_machine_zone(frozen):
    expected = WINTER.astimezone().isoformat()
    assert current_time().startswith(expected)
    assert current_time("local").startswith(expected)


@pytest.mark.parametrize("bad", ["Mars/Olympus_Mons", "not a zone", "UTC+25", "../../etc/passwd"])
def test_bad_timezone_is_a_tool_error_with_an_example(bad):
    with pytest.raises(ToolError, match="Europe/Paris"):
        current_time(bad)


def test_real_clock_is_now():
    before = datetime.now(timezone.utc).replace(microsecond=0)
    stamp = datetime.fromisoformat(current_time("UTC").split(" ")[0])
    assert before <= stamp <= datetime.now(timezone.utc)


def test_age_of_edison_today(frozen):
    # the example from the issue: born 1847-02-11, "today" 2026-12-02
    today = WINTER.astimezone().date()
    expected_days = (today - date(1847, 2, 11)).days
    result = date_diff("1847-02-11")
    assert result.startswith(f"start 1847-02-11 to end {today.isoformat()}: ")
    assert f"({expected_days:,} days)" in result
    if today == date(2026, 12, 2):
        assert result == "start 1847-02-11 to end 2026-12-02: 179 years, 9 months, 21 days (65,673 days)"


@pytest.mark.parametrize("spelling", ["1847-02-11", "February 11, 1847", "Feb 11 1847", "Feb. 11, 1847",
                                      "11 Feb 1847", "11 February 1847", "11th February 1847", "1847/2/11",
                                      "1847-02-11T08:00:00Z", "'1847-02-11'"])
def test_date_formats(spelling):
    assert parse_date(spelling) == date(1847, 2, 11)


def test_two_dates_and_edge_cases():
    assert date_diff("1847-02-11", "1931-10-18") == \
        "start 1847-02-11 to end 1931-10-18: 84 years, 8 months, 7 days (30,929 days)"
    assert date_diff("1847-02-11 to 1931-10-18") == date_diff("1847-02-11", "1931-10-18")
    assert date_diff("2024-01-31", "2024-03-01") == \
        "start 2024-01-31 to end 2024-03-01: 0 years, 1 month, 1 day (30 days)"
    assert date_diff("2000-02-29", "2001-02-28").endswith(": 1 year, 0 months, 0 days (365 days)")
    assert date_diff("2020-05-05", "2020-05-05").endswith(": 0 years, 0 months, 0 days (0 days)")
    backwards = date_diff("2001-01-01", "2000-01-01")
    assert "the end is 1 year, 0 months, 0 days before the start (-366 days)" in backwards


def test_a_bare_year_is_answered_by_the_years_with_the_uncertainty_said(frozen):
    this_year = WINTER.astimezone().date().year
    span = this_year - 1847
    assert date_diff("1847", "1931") == ("start 1847 to end 1931: 84 years by the years alone; with the full dates "
                                         "it is 84 or 83 years (whether the anniversary has passed). Give both "
                                         "full dates for the exact span.")
    assert date_diff("1847").startswith(f"start 1847 to end {WINTER.astimezone().date().isoformat()}: {span} years")
    assert f"{span} or {span - 1} years" in date_diff("1847")
    assert date_diff("1847-02-11", "1931").startswith("start 1847-02-11 to end 1931: 84 years")


def test_two_dates_in_one_input_separated_by_a_comma(frozen):
    assert date_diff("1847-02-11, 1931-10-18") == date_diff("1847-02-11", "1931-10-18")
    assert date_diff("February 11, 1847, October 18, 1931") == date_diff("1847-02-11", "1931-10-18")
    assert date_diff("February 11, 1847") == date_diff("1847-02-11")  # its comma is part of the date
    assert date_diff("2026-12-03, 1847").startswith("start 2026-12-03 to end 1847: 179 years")


def test_a_date_given_as_a_timezone_says_which_tool_to_use():
    with pytest.raises(ToolError) as err:
        current_time("2026-12-03")
    assert "unknown timezone" in str(err.value) and "date_diff" in str(err.value)


def test_relative_to_the_real_today():
    assert date_diff("2000-01-01").startswith(f"start 2000-01-01 to end {date.today().isoformat()}")


@pytest.mark.parametrize("bad, fragment", [
    ("02/11/1847", "ambiguous"),
    ("2023-02-30", "invalid date"),
    ("the day Edison was born", "YYYY-MM-DD"),
    ("1847 02", "YYYY-MM-DD"),
])
def test_bad_dates_are_tool_errors(bad, fragment):
    with pytest.raises(ToolError) as err:
        date_diff(bad)
    assert fragment in str(err.value)


def test_through_the_registry():
    registry = ToolRegistry([current_time, date_diff])
    observation = registry.run("date_diff", '{"start": "1847-02-11", "end": "1931-10-18"}').observation
    assert observation.endswith("84 years, 8 months, 7 days (30,929 days)")
    assert registry.run("current_time", "Nowhere/Special").observation.startswith("Error: unknown timezone")


def _add_months(d: date, months: int) -> date:
    y, m = divmod(d.month - 1 + months, 12)
    y += d.year
    return date(y, m + 1, min(d.day, calendar.monthrange(y, m + 1)[1]))


@settings(max_examples=300, deadline=None)
@given(st.dates(min_value=date(1, 1, 1), max_value=date(9998, 12, 31)),
       st.dates(min_value=date(1, 1, 1), max_value=date(9998, 12, 31)))
def test_years_months_days_add_back_up(a, b):
    start, end = sorted((a, b))
    result = date_diff(start.isoformat(), end.isoformat())
    y, m, d, total = (int(x.replace(",", "")) for x in re.search(
        r": (\d+) years?, (\d+) months?, (\d+) days? \(([\d,]+) days\)$", result).groups())
    assert m < 12 and total == (end - start).days
    assert _add_months(start, 12 * y + m) + timedelta(days=d) == end
    assert _add_months(start, 12 * y + m + 1) > end  # the largest whole number of months


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=80), st.text(max_size=40))
def test_arbitrary_text_only_ever_raises_tool_error(start, end):
    try:
        assert date_diff(start, end or "today")
        assert current_time(end or "local")
    except ToolError as exc:
        assert str(exc)


def test_ponder_today_pins_the_date_the_prompt_states_and_the_tools_read(monkeypatch):
    """The system prompt states today's date, so a reproducible run needs it pinned: the prompt and both tools
    read the same pinned day, and unset again it is the real one."""
    from agent.prompts import build_messages
    from core.clock import SYSTEM_CLOCK
    from memory.base import Context
    from tools import clock as clock_module

    monkeypatch.setenv("PONDER_TODAY", "2024-02-29")
    assert SYSTEM_CLOCK.today() == date(2024, 2, 29)
    system = build_messages("q", Context(), "tools", SYSTEM_CLOCK.today().isoformat())[0].content
    assert "Today's date is 2024-02-29." in system
    assert "2024-02-29" in clock_module.current_time("UTC")
    assert clock_module.date_diff("2024-01-01") == clock_module.date_diff("2024-01-01", "2024-02-29")
    assert "59 days" in clock_module.date_diff("2024-01-01")
    monkeypatch.delenv("PONDER_TODAY")
    assert abs(datetime.now(timezone.utc) - SYSTEM_CLOCK.now()) < timedelta(minutes=1)
