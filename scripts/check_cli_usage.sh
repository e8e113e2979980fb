#!/usr/bin/env bash
# Usage errors of the built pushgate exit 64 with a message naming the setting; accepted values do not.
#
# Usage: scripts/check_cli_usage.sh [PATH-TO-PUSHGATE]   (default .build/debug/pushgate)
# Prints one line per failure and a final line `N passed, M failed`; exits 1 on any failure.
set -u
binary="${1:-.build/debug/pushgate}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

# expect STATUS TEXT -- COMMAND...: COMMAND exits STATUS and its standard error contains TEXT.
expect() {
    local status="$1" text="$2"
    shift 3
    "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    local got=$?
    if [ "$got" -eq "$status" ] && { [ -z "$text" ] || grep -qF -- "$text" "$tmp/err"; }; then
        passed=$((passed + 1))
    else
        echo "FAIL $*: exit $got (wanted $status), stderr: $(head -c 300 "$tmp/err")"
        failed=$((failed + 1))
    fi
}

printf '{"message":{"title":"a","body":"b"}}\n' >"$tmp/one.json"
cat "$tmp/one.json" "$tmp/one.json" >"$tmp/two.jsonl"
max=9223372036854775807
# --record-offset near 2^63: line N's offset would wrap to a negative number; a usage error instead.
expect 64 "past the largest Kafka offset" -- "$binary" translate --lines --record-offset $max "$tmp/two.jsonl"
# The largest offset itself is a valid offset for one payload (and line 0).
expect 0 "" -- "$binary" translate --record-offset $max "$tmp/one.json"
if "$binary" translate --lines --record-offset $((max - 1)) "$tmp/two.jsonl" | grep -q "push.unified:0:$max\""; then
    passed=$((passed + 1))
else
    echo "FAIL translate --lines --record-offset $((max - 1)): line 1 is not offset $max"
    failed=$((failed + 1))
fi
# --android-formats (SPEC version 2): anything but exact names exits 64 naming the accepted ones, from flag
# or variable, for run and translate.
expect 64 "'fcm,apns' is not a comma-separated list of android-expandable, fcm" -- "$binary" run --android-formats fcm,apns
expect 64 "PUSHGATE_ANDROID_FORMATS: 'x' is not a comma-separated list of android-expandable, fcm" -- env PUSHGATE_ANDROID_FORMATS=x "$binary" run
expect 64 "'FCM' is not a comma-separated list of android-expandable, fcm" -- "$binary" translate --android-formats FCM "$tmp/two.jsonl"
expect 64 "--max-payload-bytes must be at least 1" -- "$binary" translate --max-payload-bytes 0 "$tmp/two.jsonl"
expect 64 "--shutdown-timeout must be a duration" -- "$binary" run --shutdown-timeout 1.5s
expect 64 "PUSHGATE_SHUTDOWN_TIMEOUT must be at least 100ms and at most 1h, not 2h" -- env PUSHGATE_SHUTDOWN_TIMEOUT=2h "$binary" run

# A configuration file that cannot be used stops `pushgate run` before it connects (read off the pool).
printf 'group-id: a\nmax-inflight: 3\n' >"$tmp/bad.yaml"
expect 64 "unknown key 'max-inflight'" -- "$binary" run --config "$tmp/bad.yaml"
expect 64 "cannot read the configuration file" -- env PUSHGATE_CONFIG="$tmp/missing.yaml" "$binary" run

# Off loopback, the console and the playground need a token (SPEC section 8): refused before anything starts.
expect 64 "--host 0.0.0.0 is not loopback: give --token-file" -- "$binary" console --host 0.0.0.0
expect 64 "--host 10.1.2.3 is not loopback: give --token-file" -- "$binary" playground --host 10.1.2.3
expect 64 "--port must be 0...65535" -- "$binary" console --port 70000
expect 64 "'apns' is not a comma-separated list of android-expandable, fcm" -- "$binary" console --android-formats apns

# `pushgate deliver` (SPEC 10.8): a usage error names the option, before anything connects.
expect 64 "--bootstrap-servers (or PUSHGATE_BOOTSTRAP_SERVERS) is required" -- "$binary" deliver
expect 64 "no platform to deliver to: give --apns-key-file" -- "$binary" deliver --bootstrap-servers 127.0.0.1:1
expect 64 "--platforms apns needs --apns-key-id" -- \
    "$binary" deliver --bootstrap-servers 127.0.0.1:1 --platforms apns --apns-key-file "$tmp/one.json"
expect 64 "--platforms fcm needs --fcm-credentials" -- \
    "$binary" deliver --bootstrap-servers 127.0.0.1:1 --platforms fcm
expect 64 "--platforms webpush needs --vapid-key NAME=FILE" -- \
    "$binary" deliver --bootstrap-servers 127.0.0.1:1 --platforms webpush --vapid-subject mailto:ops@example.com
expect 64 "--platforms: 'gcm' is not a comma-separated list of apns, fcm, webpush" -- \
    "$binary" deliver --bootstrap-servers 127.0.0.1:1 --platforms gcm
expect 64 "--apns-key-file: cannot read '$tmp/missing.p8'" -- env PUSHGATE_BOOTSTRAP_SERVERS=127.0.0.1:1 \
    PUSHGATE_APNS_KEY_ID=K PUSHGATE_APNS_TEAM_ID=T "$binary" deliver --apns-key-file "$tmp/missing.p8"
expect 64 "PUSHGATE_RECEIPTS must be one of failures, all, none" -- env PUSHGATE_RECEIPTS=some \
    PUSHGATE_APNS_KEY_FILE="$tmp/one.json" PUSHGATE_APNS_KEY_ID=K PUSHGATE_APNS_TEAM_ID=T \
    "$binary" deliver --bootstrap-servers 127.0.0.1:1
# A key file that is readable but not a P-256 key: 64 naming the option, not a crash (the HTTP client made
# before it is read is closed first).
expect 64 "--apns-key-file" -- env PUSHGATE_BOOTSTRAP_SERVERS=127.0.0.1:1 \
    PUSHGATE_APNS_KEY_ID=K PUSHGATE_APNS_TEAM_ID=T "$binary" deliver --apns-key-file "$tmp/one.json"
# A usable key and no broker: status 1 once the cluster check gives up (10 s), not a crash.
if openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$tmp/key.p8" 2>/dev/null; then
    expect 1 "cannot reach bootstrap servers 127.0.0.1:1" -- env PUSHGATE_APNS_KEY_ID=K PUSHGATE_APNS_TEAM_ID=T \
        "$binary" deliver --bootstrap-servers 127.0.0.1:1 --apns-key-file "$tmp/key.p8"
fi
# `pushgate devices` (SPEC 10.8) needs a cluster, and a device id is 1..512 UTF-8 bytes.
expect 64 "--bootstrap-servers (or PUSHGATE_BOOTSTRAP_SERVERS) is required" -- env -u PUSHGATE_BOOTSTRAP_SERVERS "$binary" devices list
expect 64 "Missing expected argument" -- "$binary" devices remove --bootstrap-servers 127.0.0.1:9
expect 64 "a device id is 1..512 UTF-8 bytes" -- "$binary" devices remove --bootstrap-servers 127.0.0.1:9 ""
expect 64 "--timeout must be at least 1" -- "$binary" devices list --bootstrap-servers 127.0.0.1:9 --timeout 0

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
