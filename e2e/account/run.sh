#!/usr/bin/env bash
# Runs the account page's browser tests against a fresh `hale serve`:
#   e2e/account/run.sh BINARY DATABASE_URL [pytest arguments…]
# DATABASE_URL is sqlite:PATH (the file is deleted first) or a postgres:// URL of a server whose user may create
# databases (a database of a unique name is made, and dropped afterwards). PYTHON is a Python with pytest, selenium
# and cryptography (default: python3); HALE_SCREENSHOTS a directory for the page's screenshots (optional).
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
work=$(mktemp -d /tmp/hale-account.XXXXXX)
server_pid=""
created_database=""

cleanup() {
    if [ -n "$server_pid" ]; then kill -TERM "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    if [ -n "$created_database" ]; then
        "$python" "$here/../hostile/postgres_database.py" drop "$database" "$created_database" || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

case "$database" in
    sqlite:*)
        rm -f "${database#sqlite:}" "${database#sqlite:}-wal" "${database#sqlite:}-shm"
        url=$database ;;
    postgres://* | postgresql://*)
        created_database="hale_account_$$_$RANDOM"
        url=$("$python" "$here/../hostile/postgres_database.py" create "$database" "$created_database") ;;
    *) echo "DATABASE_URL must be sqlite:PATH or postgres://…" >&2; exit 2 ;;
esac

port=$("$python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
export HALE_DATABASE_URL="$url" HALE_SERVER_PORT="$port" HALE_SERVER_HOST=127.0.0.1
# Hale's own files (uploads; with SQLite its key-encryption key) in this run's folder, and under PostgreSQL, which keeps
# no key of its own, a key-encryption key made for the run.
export HALE_SERVER_DATA_DIRECTORY="$work/data"
case "$url" in
    postgres*) export HALE_SECRETS_KEY_ENCRYPTION_KEY="$("$python" -c 'import base64,os; print(base64.b64encode(os.urandom(32)).decode())')" ;;
esac
export HALE_PASSKEYS_RP_ID=localhost HALE_PASSKEYS_ORIGINS="http://localhost:$port"
export HALE_RATE_LIMITS_SIGN_IN_PER_IP=1000/1m

"$binary" serve >"$work/serve.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 150); do
    curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break
    kill -0 "$server_pid" 2>/dev/null || { echo "hale serve exited at start:"; tail -n 40 "$work/serve.log"; exit 1; }
    sleep 0.2
done
echo "account page: hale serve on port $port with $(echo "$url" | sed 's|//[^@]*@|//…@|')"
HALE_URL="http://localhost:$port" "$python" -m pytest -q -p no:cacheprovider -o addopts="" --rootdir="$here" "$here" "$@" \
    || { echo "account page: FAIL; server log tail:"; tail -n 40 "$work/serve.log"; exit 1; }
