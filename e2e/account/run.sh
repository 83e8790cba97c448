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
# shellcheck source=../lib/database.sh
source "$here/../lib/database.sh"

cleanup() {
    if [ -n "$server_pid" ]; then kill -TERM "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    if [ -n "${smtp_pid:-}" ]; then kill -TERM "$smtp_pid" 2>/dev/null || true; wait "$smtp_pid" 2>/dev/null || true; fi
    e2e_drop_database
    rm -rf "$work"
}
trap cleanup EXIT

e2e_create_database hale_account

port=$("$python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
e2e_export_environment "$port"
export HALE_PASSKEYS_RP_ID=localhost HALE_PASSKEYS_ORIGINS="http://localhost:$port"
export HALE_RATE_LIMITS_SIGN_IN_PER_IP=1000/1m

# Mail through a real SMTP server over STARTTLS, when the Python has aiosmtpd: the tests read the codes it receives.
# Without it the email journeys report themselves skipped.
smtp_pid=""
if "$python" -c 'import aiosmtpd' 2>/dev/null; then
    tls="$work/tls"
    mkdir -p "$tls" "$work/mail"
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 -subj "/CN=Hale e2e CA" \
        -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign" \
        -keyout "$tls/ca.key" -out "$tls/ca.pem" 2>/dev/null
    openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj "/CN=localhost" \
        -keyout "$tls/server.key" -out "$tls/server.csr" 2>/dev/null
    printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' \
        >"$tls/server.ext"
    openssl x509 -req -in "$tls/server.csr" -CA "$tls/ca.pem" -CAkey "$tls/ca.key" -CAcreateserial -days 1 \
        -extfile "$tls/server.ext" -out "$tls/server.pem" 2>/dev/null
    "$python" "$here/../../scripts/smtp-test-server.py" --port 0 --maildir "$work/mail" --cert "$tls/server.pem" \
        --key "$tls/server.key" --user hale --password e2e-secret >"$work/smtp.out" 2>"$work/smtp.log" &
    smtp_pid=$!
    for _ in $(seq 1 100); do grep -q '^PORT ' "$work/smtp.out" 2>/dev/null && break; sleep 0.1; done
    export HALE_EMAIL_SMTP_HOST=localhost HALE_EMAIL_SMTP_PORT="$(sed -n 's/^PORT //p' "$work/smtp.out")"
    export HALE_EMAIL_SMTP_CA_FILE="$tls/ca.pem" HALE_EMAIL_SMTP_USERNAME=hale HALE_EMAIL_SMTP_PASSWORD=e2e-secret
    export HALE_PUSH_DELIVERY_INTERVAL=1s HALE_RECOVERY_EMAIL_DELAY=${HALE_RECOVERY_EMAIL_DELAY:-4s}
    export HALE_MAILDIR="$work/mail"
fi

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
