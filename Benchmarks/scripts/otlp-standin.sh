#!/usr/bin/env bash
# An OTLP/HTTP collector stand-in on 127.0.0.1:PORT for the tracing benchmarks, kept running while COMMAND runs.
# It answers every `POST /v1/traces` with 200 and an empty body (an `ExportTraceServiceRequest` taken whole: an
# empty `ExportTraceServiceResponse`) once it has read the request, and keeps the connection open.
#
#   STANDIN=nginx  (default) Debian's nginx, one worker process: it reads and discards each body at C speed, so
#                  that on a 2-core machine the collector takes little of the CPU the measured worker runs on.
#   STANDIN=python Tests/Integration/otlp_receiver.py --discard (Python's http.server), the receiver the tests use.
#
# Usage: otlp-standin.sh PORT COMMAND [ARGUMENT ...]   (exits with COMMAND's status)
set -euo pipefail
port=$1
shift
standin=${STANDIN:-nginx}
work=$(mktemp -d)
standin_pid=
stop() {
  [ -n "$standin_pid" ] && kill "$standin_pid" 2>/dev/null && wait "$standin_pid" 2>/dev/null
  rm -rf "$work"
}
trap stop EXIT

case $standin in
  nginx)
    nginx=$(command -v nginx || echo /usr/sbin/nginx)
    [ -x "$nginx" ] || { echo "otlp-standin.sh: nginx is missing (make bench-delivery-deps installs it)" >&2; exit 1; }
    mkdir -p "$work/body"
    cat >"$work/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $work/nginx.pid;
error_log $work/error.log warn;
events { worker_connections 64; }
http {
    client_body_temp_path $work/body;
    access_log off;
    client_max_body_size 64m;
    client_body_buffer_size 4m;
    keepalive_requests 10000000;
    keepalive_timeout 300s;
    server {
        listen 127.0.0.1:$port;
        location = /v1/traces { default_type application/x-protobuf; return 200 ""; }
    }
}
CONF
    "$nginx" -p "$work" -c "$work/nginx.conf" -e "$work/error.log" &
    standin_pid=$!
    ;;
  python)
    python=${PYTHON:-python3}
    "$python" "$(dirname "$0")/../../Tests/Integration/otlp_receiver.py" --port "$port" --discard >/dev/null &
    standin_pid=$!
    ;;
  *) echo "otlp-standin.sh: STANDIN is nginx or python, not $standin" >&2; exit 2 ;;
esac

# Ready once it accepts connections (at most 10 s).
for _ in $(seq 100); do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then break; fi
  kill -0 "$standin_pid" 2>/dev/null || { cat "$work/error.log" 2>/dev/null >&2; echo "otlp-standin.sh: $standin exited" >&2; exit 1; }
  sleep 0.1
done
(exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || { echo "otlp-standin.sh: nothing listens on $port" >&2; exit 1; }

status=0
"$@" || status=$?
exit $status
