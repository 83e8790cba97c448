"""Property: whatever one sample says (any double, huge integers, spelt-out overflow, any instant from year 1 to
9999, any offset, mismatched units), syncing it and then reading the account's data back neither crashes, stalls
nor answers 5xx, and every refusal is in the documented shape."""

import datetime

from hypothesis import given
from hypothesis import strategies as st

from hale_http import Request
from jsontext import Raw, encode
from settings import hostile_settings

TYPE_UNITS = [
    ("steps", "count"), ("distance", "m"), ("distance", "km"), ("distance", "mi"), ("distance", "ft"),
    ("calories", "kcal"), ("calories", "Cal"), ("calories", "kJ"), ("calories", "J"), ("active_minutes", "s"),
    ("active_minutes", "ms"), ("active_minutes", "min"), ("active_minutes", "hr"), ("steps", "km"),
    ("HKQuantityTypeIdentifierStepCount", "count"),
]
SPELT = [Raw(t) for t in ("1e400", "-1e400", "NaN", "Infinity", "-0", "1e19", "18446744073709551616", "5e-324")]

values = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False, allow_subnormal=True),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from(SPELT),
)
NOW = datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None, microsecond=0)
# Mostly the last weeks, where the server keeps samples (health.retentionDays) and today's and the statistics'
# reads find them; sometimes any instant from year 1 to 9999.
instants = st.one_of(
    st.datetimes(min_value=NOW - datetime.timedelta(days=40), max_value=NOW + datetime.timedelta(days=2)),
    st.datetimes(min_value=datetime.datetime(1, 1, 1), max_value=datetime.datetime(9999, 12, 31, 23, 59, 59)),
)
# Mostly samples minutes to days long, as devices record them; sometimes any length at all.
spans = st.one_of(st.integers(0, 2 * 86_400), st.integers(-(10**6), 10**6), st.integers(0, 316_000_000_000))
offsets = st.one_of(st.integers(-14 * 60, 14 * 60), st.integers(-100 * 60, 100 * 60))


def stamp(moment, offset_minutes):
    sign = "+" if offset_minutes >= 0 else "-"
    hours, minutes = divmod(abs(offset_minutes), 60)
    return (f"{moment.year:04d}-{moment.month:02d}-{moment.day:02d}T{moment.hour:02d}:{moment.minute:02d}:"
            f"{moment.second:02d}{sign}{hours:02d}:{minutes:02d}"), f"{sign}{hours:02d}:{minutes:02d}"


@hostile_settings
@given(value=values, type_unit=st.sampled_from(TYPE_UNITS), start=instants, span=spans, offset=offsets,
       user_entered=st.booleans())
def test_any_sample_then_read_back(world, attack, value, type_unit, start, span, offset, user_entered):
    actor = world.a
    try:
        end = start + datetime.timedelta(seconds=span)
    except OverflowError:
        end = datetime.datetime(9999, 12, 31, 23, 59, 59)
    start_text, zone = stamp(start, offset)
    end_text, _ = stamp(max(datetime.datetime(1, 1, 1), min(end, datetime.datetime(9999, 12, 31, 23, 59, 59))), offset)
    sample = {"id": f"property-{start_text}-{span}", "type": type_unit[0], "value": value, "unit": type_unit[1],
              "startDate": start_text, "endDate": end_text, "timeZoneOffset": zone, "userEntered": user_entered}
    headers = [("Authorization", f"Bearer {actor.token}"), ("Content-Type", "application/json")]
    request = Request("POST", "/api/v1/health/sync", headers, encode({"provider": "healthkit", "samples": [sample]}),
                      label=f"sync {type_unit[1]} {value!r} {start_text}…{end_text}")
    _, failures = attack.send("/api/v1/health/sync", request, read_back=True)
    day = start.date()
    low = day - datetime.timedelta(days=1) if day > datetime.date.min else day
    high = day + datetime.timedelta(days=1) if day < datetime.date.max else day
    query = f"startDate={low.isoformat()}&endDate={high.isoformat()}"
    read = Request("GET", f"/health/statistics?{query}", [("Authorization", f"Bearer {actor.token}")],
                   label=f"statistics around {day} after «{request.label}»")
    _, found = attack.send("/health/statistics", read)
    attack.assert_clean(failures + found)
