"""Each documented operation, attacked: its valid request with one thing changed at a time (headers, path and query
parameters, content type, body structure and size, each field's value), then the valid request itself."""

from mutations import variants
from routes import templates


def test_hostile_variants(operation, world, attack):
    operation_id, _, _ = operation
    known = templates(world)
    assert operation_id in known, f"no valid request for {operation_id}: add one to routes.py"
    template = known[operation_id]()
    attack.assert_clean(attack.run(template, variants(template), fresh=known[operation_id]))
