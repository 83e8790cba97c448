#!/usr/bin/env bash
# Delivers Hale's events to a receiver that verifies them with the official `standardwebhooks` package:
#   e2e/webhooks/run.sh BINARY DATABASE_URL [pytest arguments…]
# DATABASE_URL is sqlite:PATH (one `hale serve`; the file is deleted first) or a postgres:// URL of a server whose user
# may create databases: then two `hale serve` share a database of a unique name (dropped afterwards), so every event
# is delivered once, in order, whichever instance claims it. PYTHON is a Python with pytest and standardwebhooks.
set -euo pipefail
if [ $# -lt 2 ]; then
    echo "usage: $0 BINARY DATABASE_URL [pytest arguments…]" >&2
    exit 2
fi
binary=$(realpath "$1")
database=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
python=${PYTHON:-python3}
work=$(mktemp -d /tmp/hale-webhooks.XXXXXX)
pids=()
# shellcheck source=../lib/database.sh
source "$here/../lib/database.sh"

free_port() { "$python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

cleanup() {
    for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
    e2e_drop_database
    rm -rf "$work"
}
trap cleanup EXIT

e2e_create_database hale_webhooks

instances=1
case "$database" in postgres*) instances=2 ;; esac
first_port=$(free_port)
e2e_export_environment "$first_port"
# Retries a second apart, looked for four times a second: the suite need not wait for the real schedule.
export HALE_WEBHOOKS_RETRY_SCHEDULE=1s,1s,1s,1s,1s,1s HALE_WEBHOOKS_DELIVERY_INTERVAL=250ms
"$binary" migrate >"$work/migrate.log" 2>&1 || { cat "$work/migrate.log"; exit 1; }
admin_key=$("$binary" admin-keys create --name webhooks-suite | "$python" -c 'import json,sys; print(json.load(sys.stdin)["key"])')

urls=()
for index in $(seq 1 "$instances"); do
    port=$first_port
    [ "$index" -eq 1 ] || port=$(free_port)
    HALE_SERVER_PORT=$port HALE_DATABASE_MIGRATE_ON_START=false "$binary" serve >"$work/serve-$index.log" 2>&1 &
    pids+=($!)
    for _ in $(seq 1 150); do
        "$python" -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/readyz')" >/dev/null 2>&1 && break
        kill -0 "${pids[-1]}" 2>/dev/null || { cat "$work/serve-$index.log"; exit 1; }
        sleep 0.2
    done
    urls+=("http://127.0.0.1:$port")
done

status=0
HALE_URLS="$(IFS=,; echo "${urls[*]}")" HALE_ADMIN_KEY="$admin_key" HALE_BINARY="$binary" \
    "$python" -m pytest -q -p no:cacheprovider "$here/test_webhook_deliveries.py" "$@" || status=$?
for index in "${!pids[@]}"; do
    if ! kill -0 "${pids[$index]}" 2>/dev/null; then
        echo "hale serve $((index + 1)) died during the run:" >&2
        tail -n 50 "$work/serve-$((index + 1)).log" >&2
        exit 1
    fi
    kill -TERM "${pids[$index]}"
done
for pid in "${pids[@]}"; do
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    if kill -0 "$pid" 2>/dev/null; then echo "hale serve did not stop within 10 s" >&2; exit 1; fi
done
pids=()
if [ "$status" -ne 0 ]; then for log in "$work"/serve-*.log; do echo "== $log"; tail -n 30 "$log"; done; fi
exit "$status"
