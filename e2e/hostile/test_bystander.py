"""The verdict of the bystander probe: account B's reads and writes stayed fast and successful throughout."""

from bystander import BYSTANDER_BOUND_SECONDS


def test_bystander_was_never_slow_nor_refused(bystander, attack):
    # In findings mode (HALE_HOSTILE_KEEP_GOING) a crashed server is restarted: the crash is reported where it
    # happened, and the probes that failed while it was down are not counted here again.
    slow = bystander.failures_between(0, float("inf"), excluding=attack.restarts)
    shown = "\n".join(p.describe() for p in slow[:20])
    assert not slow, (f"{len(slow)} bystander probes over {BYSTANDER_BOUND_SECONDS} s or failed "
                      f"({bystander.distribution()}):\n{shown}")
