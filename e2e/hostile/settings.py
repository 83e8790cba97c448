"""How long the property-based tests run. Fixed seed, no shrinking (a shrink of a stall would stall again, for
minutes): the same seed finds the same failures, and HALE_HOSTILE_EXAMPLES runs longer."""

import os

from hypothesis import HealthCheck, Phase, settings

EXAMPLES = int(os.environ.get("HALE_HOSTILE_EXAMPLES", "60"))

hostile_settings = settings(
    max_examples=EXAMPLES,
    derandomize=True,
    deadline=None,
    database=None,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=list(HealthCheck),
    report_multiple_bugs=False,
)
