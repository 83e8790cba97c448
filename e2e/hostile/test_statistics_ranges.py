"""Statistics over extreme, reversed and enormous date ranges, in extreme time zones: refused or answered, quickly,
in seed 001's shape."""

import datetime
import urllib.parse

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hale_http import Request
from settings import hostile_settings

RANGES = [
    ("reversed", "2025-07-24", "2025-07-01"),
    ("reversed across years", "9999-12-31", "0001-01-01"),
    ("9,999 years", "0001-01-01", "9999-12-31"),
    ("3,660 days (the documented maximum)", "2016-01-01", "2026-01-07"),
    ("3,661 days", "2016-01-01", "2026-01-08"),
    ("the first day", "0001-01-01", "0001-01-01"),
    ("the last day", "9999-12-31", "9999-12-31"),
    ("year 0", "0000-01-01", "0000-12-31"),
    ("+275760-09-13", "%2B275760-09-13", "%2B275760-09-13"),
    ("-000001-01-01", "-000001-01-01", "0001-01-01"),
    ("February 30", "2025-02-30", "2025-03-01"),
    ("a week of -0", "-0", "-0"),
    ("1e19", "1e19", "1e19"),
]
ZONES = ["Pacific/Kiritimati", "Etc/GMT+12", "+99:99", "UTC"]


def statistics(token, start, end, period, zone):
    query = f"startDate={start}&endDate={end}&period={period}"
    headers = [("Authorization", f"Bearer {token}"), ("X-Timezone", zone)]
    return Request("GET", f"/health/statistics?{query}", headers, label=f"statistics {start}…{end} by {period} in {zone}")


@pytest.mark.parametrize("name,start,end", RANGES, ids=[r[0] for r in RANGES])
def test_extreme_ranges(name, start, end, world, attack):
    failures = []
    for period in ("day", "week", "month"):
        for zone in ZONES:
            _, found = attack.send("/health/statistics", statistics(world.a.token, start, end, period, zone))
            failures += found
    attack.assert_clean(failures)


def _day(date):
    return f"{date.year:04d}-{date.month:02d}-{date.day:02d}"


@hostile_settings
@given(
    start=st.dates(min_value=datetime.date(1, 1, 1), max_value=datetime.date(9999, 12, 31)),
    length=st.one_of(st.integers(-400, 400), st.integers(-3_700_000, 3_700_000)),
    period=st.sampled_from(["day", "week", "month"]),
    zone=st.sampled_from(ZONES),
)
def test_any_range(world, attack, start, length, period, zone):
    try:
        end = start + datetime.timedelta(days=length)
    except OverflowError:
        end = datetime.date(9999, 12, 31) if length > 0 else datetime.date(1, 1, 1)
    request = statistics(world.a.token, _day(start), _day(end), period, urllib.parse.quote(zone))
    _, failures = attack.send("/health/statistics", request)
    attack.assert_clean(failures)
