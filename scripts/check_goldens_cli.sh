#!/usr/bin/env bash
# Runs every golden case of Tests/PushTranslationTests/Golden through the built `pushgate translate`
# and compares its standard output byte for byte with NAME.expected.jsonl.
#
# Usage: scripts/check_goldens_cli.sh [PATH-TO-PUSHGATE]   (default .build/debug/pushgate)
# The command per case is:
#   pushgate translate --record-key=user-1 --record-timestamp=1700000000000 $(cat NAME.args) NAME.input.json
# (NAME.args: one option per line, `--name=value`). `pushgate translate` exits 1 when it writes a dead
# letter; that is expected and not a failure. Any other non-zero status (a crash, a usage error) is.
# Prints one line per mismatch and a final line `N passed, M failed`; exits 1 on any failure.
set -u

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
binary="${1:-.build/debug/pushgate}"
case "$binary" in /*) ;; *) binary="$PWD/$binary" ;; esac
golden="$root/Tests/PushTranslationTests/Golden"

if [ ! -x "$binary" ]; then
    echo "no executable pushgate at $binary (build it first: swift build --product pushgate)" >&2
    exit 2
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

passed=0
failed=0
shopt -s nullglob
for input in "$golden"/*.input.json; do
    name="$(basename "$input" .input.json)"
    expected="$golden/$name.expected.jsonl"
    args=()
    if [ -f "$golden/$name.args" ]; then
        while IFS= read -r line || [ -n "$line" ]; do
            line="${line%$'\r'}"
            # trim surrounding blanks, skip empty lines (as the Swift golden test does)
            line="${line#"${line%%[![:space:]]*}"}"
            line="${line%"${line##*[![:space:]]}"}"
            [ -n "$line" ] && args+=("$line")
        done < "$golden/$name.args"
    fi
    actual="$tmp/$name.actual.jsonl"
    "$binary" translate --record-key=user-1 --record-timestamp=1700000000000 ${args[@]+"${args[@]}"} "$input" \
        >"$actual" 2>"$tmp/$name.stderr"
    status=$?
    if [ ! -f "$expected" ]; then
        echo "FAIL $name: missing $name.expected.jsonl"
        failed=$((failed + 1))
    elif [ "$status" -ne 0 ] && [ "$status" -ne 1 ]; then
        echo "FAIL $name: pushgate exited with status $status: $(head -c 300 "$tmp/$name.stderr")"
        failed=$((failed + 1))
    elif [ "$status" -eq 1 ] && ! grep -q '"format":null' "$actual"; then
        echo "FAIL $name: pushgate exited 1 without writing a dead letter: $(head -c 300 "$tmp/$name.stderr")"
        failed=$((failed + 1))
    elif ! cmp -s "$expected" "$actual"; then
        first="$(cmp "$expected" "$actual" 2>&1 | head -n 1)"
        echo "FAIL $name: output differs from $name.expected.jsonl ($first)"
        failed=$((failed + 1))
    else
        passed=$((passed + 1))
    fi
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
