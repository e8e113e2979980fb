#!/usr/bin/env python3
"""Validates KEDA objects (ScaledObject, TriggerAuthentication) against KEDA's published CRD schemas.

    python3 deploy/validate_keda.py deploy/kubernetes/*.yaml

kubernetes-validate knows only Kubernetes' own kinds; KEDA's are defined by its CustomResourceDefinitions,
kept in deploy/schemas/keda/ exactly as KEDA publishes them (see the README there). Each object of a
`keda.sh` kind is validated with `jsonschema` against its version's `openAPIV3Schema`, strictly as
`kubectl apply --validate=strict` would: a field the schema does not declare is an error (unless the
schema says `x-kubernetes-preserve-unknown-fields`). Ends with `N passed, M failed`; exit status 1 on any.
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import jsonschema
import yaml

SCHEMAS = Path(__file__).resolve().parent / "schemas" / "keda"


def strict(schema):
    """The schema with undeclared properties refused, as the API server's strict field validation does."""
    schema = copy.deepcopy(schema)

    def walk(node):
        if isinstance(node, dict):
            if ("properties" in node and "additionalProperties" not in node
                    and not node.get("x-kubernetes-preserve-unknown-fields")):
                node["additionalProperties"] = False
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(schema)
    return schema


def load_crds(directory: Path = SCHEMAS) -> dict[tuple[str, str], dict]:
    """(apiVersion, kind) -> strict JSON schema, from every CRD in the directory."""
    crds = {}
    for path in sorted(directory.glob("*.yaml")):
        for crd in yaml.safe_load_all(path.read_text()):
            if not crd or crd.get("kind") != "CustomResourceDefinition":
                continue
            group, kind = crd["spec"]["group"], crd["spec"]["names"]["kind"]
            for version in crd["spec"]["versions"]:
                crds[(f"{group}/{version['name']}", kind)] = strict(version["schema"]["openAPIV3Schema"])
    return crds


def validate(paths: list[str], crds: dict) -> tuple[int, int]:
    passed = failed = 0
    for path in paths:
        for doc in yaml.safe_load_all(Path(path).read_text()):
            if not isinstance(doc, dict) or not str(doc.get("apiVersion", "")).startswith("keda.sh/"):
                continue
            what = f"{path}: {doc.get('kind')} {(doc.get('metadata') or {}).get('name')}"
            schema = crds.get((doc.get("apiVersion"), doc.get("kind")))
            if schema is None:
                print(f"FAIL {what}: no CRD for {doc.get('apiVersion')} {doc.get('kind')} in {SCHEMAS}")
                failed += 1
                continue
            # metadata is the API server's ObjectMeta, which the CRD leaves open; it is checked by kubectl.
            body = {k: v for k, v in doc.items() if k != "metadata"}
            errors = sorted(jsonschema.Draft7Validator(schema).iter_errors(body), key=lambda e: list(e.path))
            for error in errors:
                print(f"FAIL {what}: {'.'.join(map(str, error.path)) or '(root)'}: {error.message}")
            if errors:
                failed += 1
            else:
                print(f"ok   {what} is valid against KEDA's CRD schema")
                passed += 1
    return passed, failed


def main(argv: list[str]) -> int:
    passed, failed = validate(argv, load_crds())
    if passed + failed == 0:
        print("FAIL no keda.sh objects found")
        failed = 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
