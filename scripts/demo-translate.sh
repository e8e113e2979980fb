#!/usr/bin/env bash
# The README's run command: translate the example payloads and print one line per record.
set -euo pipefail
bin=${1:-.build/debug/pushgate}
cd "$(dirname "$0")/.."
echo "== pushgate translate --lines examples/payloads.jsonl (one line per record: topic, key, format, first bytes)"
set +e
"$bin" translate --lines --record-key demo-user --record-header trace-id=demo examples/payloads.jsonl > /tmp/pushgate-demo.jsonl
status=$?
set -e
python3 - /tmp/pushgate-demo.jsonl <<'PY'
import json, sys
for line in open(sys.argv[1], encoding="utf-8"):
    record = json.loads(line)
    value = record["value"] if record["format"] is None else json.dumps(record["value"], ensure_ascii=False, separators=(",", ":"))
    extra = ""
    if record["format"] is None:
        errors = dict(record["headers"]).get("pushgate-errors", "[]")
        extra = "  errors=" + ",".join(e["code"] + "@" + e["path"] for e in json.loads(errors))
    print(f'{record["topic"]:<24} key={record["key"]} format={record["format"] or "dead-letter":<18} {value[:90]}{extra}')
PY
echo "== full records: /tmp/pushgate-demo.jsonl (exit status $status: 1 means at least one dead letter)"
