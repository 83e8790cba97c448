"""The verdict of the bystander probe: account B's reads and writes stayed fast and successful throughout."""

from bystander import BYSTANDER_BOUND_SECONDS


def test_bystander_was_never_slow_nor_refused(bystander):
    slow = [p for p in bystander.probes if p.failed]
    shown = "\n".join(p.describe() for p in slow[:20])
    assert not slow, (f"{len(slow)} bystander probes over {BYSTANDER_BOUND_SECONDS} s or failed "
                      f"({bystander.distribution()}):\n{shown}")
