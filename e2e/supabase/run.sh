#!/usr/bin/env bash
# Runs seed 004's Supabase calls, through the official supabase-py client, against a fresh `hale serve`:
#   e2e/supabase/run.sh BINARY DATABASE_URL [pytest arguments…]
# DATABASE_URL is sqlite:PATH (the file is deleted first) or a postgres:// URL of a server whose user may create
# databases (a database of a unique name is made, and dropped afterwards). PYTHON is a Python with pytest and
# supabase (default: python3).
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
work=$(mktemp -d /tmp/hale-supabase.XXXXXX)
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

e2e_create_database hale_supabase

port=$(free_port)
e2e_export_environment "$port"
HALE_SUPABASE_PUBLISHABLE_KEYS=$("$binary" supabase key)
export HALE_SUPABASE_PUBLISHABLE_KEYS
"$binary" migrate >"$work/migrate.log" 2>&1 || { cat "$work/migrate.log"; exit 1; }
"$binary" serve >"$work/serve.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 150); do
    "$python" -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/readyz')" >/dev/null 2>&1 && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$work/serve.log"; exit 1; }
    sleep 0.2
done

status=0
HALE_URL="http://127.0.0.1:$port" HALE_BINARY="$binary" "$python" -m pytest -q -p no:cacheprovider \
    "$here/test_supabase_client.py" "$@" || status=$?
if ! kill -0 "$server_pid" 2>/dev/null; then
    echo "hale serve died during the run:" >&2
    tail -n 50 "$work/serve.log" >&2
    exit 1
fi
kill -TERM "$server_pid"
for _ in $(seq 1 50); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.2; done
if kill -0 "$server_pid" 2>/dev/null; then echo "hale serve did not stop within 10 s" >&2; exit 1; fi
server_pid=""
[ "$status" -eq 0 ] || tail -n 50 "$work/serve.log"
exit "$status"
