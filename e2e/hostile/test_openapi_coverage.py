"""Every operation the running server documents has a valid request to start its attacks from, and no template
names an operation that no longer exists: a new route cannot be added untested."""

from conftest import openapi_operations
from routes import templates


def test_every_documented_operation_has_a_template(world):
    known = templates(world)
    documented = {operation_id for operation_id, _, _ in openapi_operations()}
    assert not documented - set(known), f"add a valid request to routes.py for: {sorted(documented - set(known))}"
    assert not set(known) - documented, f"routes.py names operations /openapi.json lacks: {sorted(set(known) - documented)}"


def test_templates_match_the_document(world):
    known = templates(world)
    mismatched = []
    for operation_id, method, path in openapi_operations():
        if operation_id in known:
            template = known[operation_id]()
            if (template.method, template.path) != (method, path):
                mismatched.append(f"{operation_id}: document {method} {path}, template {template.method} {template.path}")
    assert not mismatched, mismatched
