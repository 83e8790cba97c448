#!/usr/bin/env python3
"""Validate a JSON document offline against the vendored FHIR R4 or Open mHealth schemas.

Usage:
    validate.py fhir DOCUMENT.json [SCHEMA-NAME]
    validate.py omh  DOCUMENT.json [SCHEMA-NAME]

fhir: SCHEMA-NAME is optional. Without it the document is checked against the
      root of fhir/fhir.schema.json, which is a oneOf over every resource type
      (the resource's "resourceType" picks the branch). With it (for example
      "Observation") only that definition is used.
omh:  SCHEMA-NAME is a file name in omh/, with or without ".json", for example
      "step-count-3.0". Without it the document must be an OMH data point
      (an object with "header" and "body"): it is checked against
      data-point-1.0.json and its body against the schema named by
      header.schema_id (namespace "omh", name, version -> NAME-VERSION.json).

Nothing is fetched from the network: every $ref resolves through a
referencing.Registry built from the files next to this script, and any other
URI is refused. Format assertions (e.g. "date-time") are checked where the
installed jsonschema has a checker for them.

Exit status: 0 valid, 1 invalid, 2 usage or setup error.
"""
from __future__ import annotations

import json
import posixpath
import sys
from pathlib import Path
from urllib.parse import urldefrag, urlsplit

from jsonschema import FormatChecker
from jsonschema.validators import validator_for
from referencing import Registry, Resource
from referencing.exceptions import NoSuchResource
from referencing.jsonschema import DRAFT4, DRAFT6

HERE = Path(__file__).resolve().parent
FHIR_SCHEMA = HERE / "fhir" / "fhir.schema.json"
# The R4 schema declares "id" (draft-04 spelling) although its $schema is
# draft-06, where the keyword is "$id"; the id is therefore not picked up
# automatically and we register the document under it explicitly.
FHIR_ID = "http://hl7.org/fhir/json-schema/4.0"
OMH_DIR = HERE / "omh"
# OMH refs are relative file names ("time-frame-1.x.json"); the published
# base of the schemas is this w3id namespace (activity-name-1.0.json says so
# in its $id), so every local file is registered under it.
OMH_BASE = "https://w3id.org/openmhealth/schemas/omh/"


def load(path: Path):
    with path.open("rb") as f:
        return json.load(f)


# ---------------------------------------------------------------- FHIR
def fhir_registry() -> Registry:
    schema = load(FHIR_SCHEMA)
    resource = Resource.from_contents(schema, default_specification=DRAFT6)
    return Registry(retrieve=_refuse).with_resource(FHIR_ID, resource)


def fhir_targets(doc, name):
    registry = fhir_registry()
    root = registry.contents(FHIR_ID)
    if name:
        if name not in root.get("definitions", {}):
            raise SystemExit(f"error: no definition {name!r} in {FHIR_SCHEMA.name}")
        schema = {"$schema": root["$schema"], "$ref": f"{FHIR_ID}#/definitions/{name}"}
        label = f"fhir.schema.json#/definitions/{name}"
    else:
        schema = {"$schema": root["$schema"], "$ref": FHIR_ID}
        label = "fhir.schema.json (root oneOf by resourceType)"
    return [(label, schema, doc, registry)]


# ---------------------------------------------------------------- OMH
def omh_local_name(uri: str) -> str | None:
    """Map any form of OMH schema URI (relative name, w3id URI, file URI,
    openmhealth.org URL) to a local file name, if we have that file."""
    uri, _ = urldefrag(uri)
    name = posixpath.basename(urlsplit(uri).path)
    if name and not name.endswith(".json"):
        name += ".json"
    return name if name and (OMH_DIR / name).is_file() else None


def _omh_retrieve(uri: str) -> Resource:
    name = omh_local_name(uri)
    if name is None:
        raise NoSuchResource(ref=uri)
    return Resource.from_contents(load(OMH_DIR / name), default_specification=DRAFT4)


def _refuse(uri: str) -> Resource:
    raise NoSuchResource(ref=uri)


def omh_registry() -> Registry:
    resources = []
    for path in sorted(OMH_DIR.glob("*.json")):
        res = Resource.from_contents(load(path), default_specification=DRAFT4)
        resources.append((OMH_BASE + path.name, res))
    # Pre-registered under the w3id base; anything else that names a local
    # file (another base, a file: URI) is served by the retrieve hook.
    return Registry(retrieve=_omh_retrieve).with_resources(resources).crawl()


def omh_schema_ref(name: str, registry: Registry):
    local = omh_local_name(name)
    if local is None:
        raise SystemExit(f"error: no OMH schema {name!r} in {OMH_DIR}")
    uri = OMH_BASE + local
    contents = registry.contents(uri)
    # A one-line wrapper in the target's own dialect, so that the relative
    # $refs inside it resolve against OMH_BASE. The validator switches
    # dialect per resource, so a draft-07 schema (step-count-3.0) may
    # reference draft-04 ones (time-frame-1.x) and each keeps its own rules.
    schema = {"$ref": uri}
    if "$schema" in contents:
        schema["$schema"] = contents["$schema"]
    return local, schema


def omh_targets(doc, name):
    registry = omh_registry()
    if name:
        local, schema = omh_schema_ref(name, registry)
        return [(local, schema, doc, registry)]
    if not (isinstance(doc, dict) and "header" in doc and "body" in doc):
        raise SystemExit("error: not a data point (no header/body); give SCHEMA-NAME")
    targets = []
    local, schema = omh_schema_ref("data-point-1.0", registry)
    targets.append((local, schema, doc, registry))
    sid = doc.get("header", {}).get("schema_id") if isinstance(doc.get("header"), dict) else None
    if isinstance(sid, dict) and sid.get("namespace") == "omh" and {"name", "version"} <= sid.keys():
        body_name = f"{sid['name']}-{sid['version']}"
        local, schema = omh_schema_ref(body_name, registry)
        targets.append((f"{local} (body, from header.schema_id)", schema, doc["body"], registry))
    else:
        targets.append(("(body)", None, f"header.schema_id {sid!r} does not name a local omh schema", None))
    return targets


# ---------------------------------------------------------------- main
def _path(err) -> str:
    return "/" + "/".join(str(p) for p in err.absolute_path)


def _short(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[:limit] + " ..."


def _leaves(err):
    """Leaf errors under a oneOf/anyOf, skipping the branches that failed
    only because they are for another FHIR resourceType."""
    if not err.context:
        yield err
        return
    branches = {}
    for sub in err.context:
        branches.setdefault(sub.relative_schema_path[0], []).append(sub)

    def other_type(group):
        return any(e.validator == "const" and list(e.absolute_path)[-1:] == ["resourceType"] for e in group)

    kept = [g for g in branches.values() if not other_type(g)] or list(branches.values())
    for group in kept:
        for sub in group:
            yield from _leaves(sub)


def check(label, schema, instance, registry) -> bool:
    if schema is None:  # setup problem recorded as the instance text
        print(f"INVALID against {label}: {instance}")
        return False
    cls = validator_for(schema)
    validator = cls(schema, registry=registry, format_checker=FormatChecker())
    errors = sorted(validator.iter_errors(instance), key=lambda e: list(e.absolute_path))
    if not errors:
        print(f"VALID against {label} [{cls.__name__}]")
        return True
    print(f"INVALID against {label} [{cls.__name__}]: {len(errors)} error(s)")
    for err in errors[:10]:
        print(f"  - at {_path(err)}: {_short(err.message)}")
        # oneOf/anyOf (FHIR's resourceType switch, OMH time frames) report
        # the whole instance; show the deepest failures in the branches
        # that apply (for FHIR: the branch of the document's resourceType).
        leaves = list(_leaves(err))
        if leaves and leaves != [err]:
            depth = max(len(e.absolute_path) for e in leaves)
            seen = set()
            for leaf in leaves:
                key = (_path(leaf), leaf.message)
                if len(leaf.absolute_path) == depth and key not in seen:
                    seen.add(key)
                    print(f"      because: at {key[0]}: {_short(leaf.message)}")
                    if len(seen) == 5:
                        break
    return False


def main(argv) -> int:
    if len(argv) not in (3, 4) or argv[1] not in ("fhir", "omh"):
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    kind, doc_path = argv[1], Path(argv[2])
    name = argv[3] if len(argv) == 4 else None
    try:
        doc = load(doc_path)
    except (OSError, ValueError) as exc:
        print(f"error: cannot read {doc_path}: {exc}", file=sys.stderr)
        return 2
    if "date-time" not in FormatChecker().checkers:
        print("warning: no date-time format checker (pip install rfc3339-validator)", file=sys.stderr)
    targets = fhir_targets(doc, name) if kind == "fhir" else omh_targets(doc, name)
    ok = True
    for target in targets:
        ok = check(*target) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
