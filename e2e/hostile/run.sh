#!/usr/bin/env bash
# Runs the hostile-client suite against a fresh `hale serve`:
#   e2e/hostile/run.sh BINARY DATABASE_URL [pytest arguments…]
# DATABASE_URL is sqlite:PATH (the file is deleted first) or a postgres:// URL of a server whose user may create
# databases (a database of a unique name is created, and dropped afterwards). Fails if the suite fails, if the server
# died, or if it did not stop within 10 s of SIGTERM. Set PYTHON to a Python with pytest, hypothesis and
# cryptography (default: python3).
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
work=$(mktemp -d /tmp/hale-hostile.XXXXXX)
server_pid=""
# shellcheck source=../lib/database.sh
source "$here/../lib/database.sh"

free_port() { "$python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

cleanup() {
    if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then kill -KILL "$server_pid" 2>/dev/null || true; fi
    e2e_drop_database
    rm -rf "$work"
}
trap cleanup EXIT

e2e_create_database hale_hostile

port=$(free_port)
e2e_export_environment "$port"
export HALE_PASSKEYS_RP_ID=localhost HALE_PASSKEYS_ORIGINS="http://localhost:$port"
export HALE_APP_ATTEST_DEVELOPMENT_MODE=true
# The publishable key seed 004's app sends to /rest/v1 (the templates read it from here).
export HALE_SUPABASE_PUBLISHABLE_KEYS=sb_publishable_hostile-suite-key
# Long enough that the tokens the world made stay valid for the whole run, however slow the server gets.
export HALE_TOKENS_ACCESS_TOKEN_LIFETIME=2h
# The issuer is the server's URL, and tokens carry an audience: test_tokens_any_library_verifies starts from them.
export HALE_SERVER_PUBLIC_URL="http://127.0.0.1:$port" HALE_TOKENS_AUDIENCES=https://api.hostile.example
# The suite sends thousands of requests to every budgeted route from one address and one account: with the default
# budgets nearly all would be 429s and the routes behind them never reached. 429 itself is still checked
# (Retry-After). Every budget (docs/api/rate-limits.md) is raised.
export HALE_RATE_LIMITS_DEVICE_KEYS_PER_IP=1000000/1m HALE_RATE_LIMITS_DEVICE_KEYS_PER_FINGERPRINT=1000000/1m
export HALE_RATE_LIMITS_SOCIAL_SIGN_IN_PER_IP=1000000/1m HALE_RATE_LIMITS_APPLE_NOTIFICATIONS_PER_IP=1000000/1m
export HALE_RATE_LIMITS_SIGN_IN_PER_IP=1000000/1m HALE_RATE_LIMITS_REFRESH_PER_IP=1000000/1m
export HALE_RATE_LIMITS_ATTESTATION_PER_ACCOUNT=1000000/1m HALE_RATE_LIMITS_CONFIRMATION_ANSWERS_PER_ACCOUNT=1000000/1m
export HALE_RATE_LIMITS_ACCOUNT_EXPORTS_PER_ACCOUNT=1000000/1m
export HALE_RATE_LIMITS_HEALTH_IMPORTS_PER_ACCOUNT=1000000/1m HALE_RATE_LIMITS_HEALTH_IMPORTS_PER_IP=1000000/1m
export HALE_RATE_LIMITS_EMAIL_CODES_PER_IP=1000000/1m HALE_EMAIL_CODES_PER_ADDRESS=10000 HALE_EMAIL_CODES_PER_ACCOUNT=10000
# Mail is written as files in the data directory (no SMTP server here); the suite reads its codes there, delivered
# within a second.
export HALE_PUSH_DELIVERY_INTERVAL=1s HALE_HOSTILE_MAILDIR="$work/data/mail"

"$binary" migrate >"$work/migrate.log" 2>&1 || { cat "$work/migrate.log"; exit 1; }
admin_key=$("$binary" admin-keys create --name hostile-suite | "$python" -c 'import json,sys; print(json.load(sys.stdin)["key"])')

log="${HALE_HOSTILE_LOG:-$work/serve.log}"
"$binary" serve >"$log" 2>&1 &
server_pid=$!
for _ in $(seq 1 150); do
    curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break
    kill -0 "$server_pid" 2>/dev/null || { echo "hale serve exited at start:"; tail -n 40 "$log"; exit 1; }
    sleep 0.2
done
curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null || { echo "hale serve never became ready"; tail -n 40 "$log"; exit 1; }
echo "hostile: hale serve (pid $server_pid) on port $port with $(echo "$url" | sed 's|//[^@]*@|//…@|')"

started=$SECONDS
status=0
export HYPOTHESIS_STORAGE_DIRECTORY="$work/hypothesis"  # not .hypothesis/ in the work tree
echo "$server_pid" >"$work/pid"
HALE_HOSTILE_URL="http://127.0.0.1:$port" HALE_HOSTILE_PID="$server_pid" HALE_HOSTILE_LOG="$log" \
    HALE_HOSTILE_ADMIN_KEY="$admin_key" HALE_HOSTILE_BINARY="$binary" HALE_HOSTILE_PID_FILE="$work/pid" \
    "$python" -m pytest -q -p no:cacheprovider -o addopts="" --rootdir="$here" "$here" "$@" || status=$?
echo "hostile: the suite took $((SECONDS - started)) s"

if [ "$(cat "$work/pid")" != "$server_pid" ]; then
    # Findings mode (HALE_HOSTILE_KEEP_GOING=1) restarted a server that crashed or stalled: that is a failure too.
    echo "hostile: FAIL: the server crashed or stalled and was restarted during the suite"
    kill -KILL "$server_pid" 2>/dev/null || true
    server_pid=$(cat "$work/pid")
    status=1
fi
if ! kill -0 "$server_pid" 2>/dev/null; then
    wait "$server_pid" && code=0 || code=$?
    echo "hostile: FAIL: the server died during the suite (exit status $code); log tail:"
    tail -n 40 "$log"
    server_pid=""
    exit 1
fi
kill -TERM "$server_pid"
stopped=""
for _ in $(seq 1 100); do
    if ! kill -0 "$server_pid" 2>/dev/null; then stopped=yes; break; fi
    sleep 0.1
done
if [ -z "$stopped" ]; then
    echo "hostile: FAIL: hale serve did not stop within 10 s of SIGTERM; log tail:"
    tail -n 20 "$log"
    exit 1
fi
wait "$server_pid" 2>/dev/null || true
server_pid=""
echo "hostile: hale serve stopped on SIGTERM"
exit "$status"
