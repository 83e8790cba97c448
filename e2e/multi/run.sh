#!/usr/bin/env bash
# Two `hale serve` on one PostgreSQL behind nginx on loopback (deploy/nginx/hale.conf, with TLS and HTTP/2, as
# shipped), a mixed load for --seconds (sign-ins, refreshes, syncs, statistics, webhooks delivered), then: no 5xx,
# every event delivered once, every single-use value used once, the audit chain verifies. Then a backup: pg_dump,
# restored into a new database, where `hale audit verify` passes and a person signs in.
#   e2e/multi/run.sh BINARY POSTGRES_URL [SECONDS]
# PYTHON is a Python with cryptography and standardwebhooks. Needs nginx, openssl and PostgreSQL's client tools.
# HALE_MULTI_INSTANCES=1 runs one instance behind the same proxy: the baseline docs/scaling.md compares with.
set -euo pipefail
if [ $# -lt 2 ]; then
    echo "usage: $0 BINARY POSTGRES_URL [SECONDS]" >&2
    exit 2
fi
binary=$(realpath "$1")
database=$2
seconds=${3:-30}
here=$(cd "$(dirname "$0")" && pwd)
deploy=$(cd "$here/../../deploy" && pwd)
python=${PYTHON:-python3}
work=$(mktemp -d /tmp/hale-multi.XXXXXX)
chmod 755 "$work"
pids=()
restored=""
# shellcheck source=../lib/database.sh
source "$here/../lib/database.sh"

free_port() { "$python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)

cleanup() {
    [ -f "$work/nginx/nginx.pid" ] && kill "$(cat "$work/nginx/nginx.pid")" 2>/dev/null || true
    for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
    e2e_drop_database
    [ -n "$restored" ] && "$python" "$here/../hostile/postgres_database.py" drop "$database" "$restored" || true
    rm -rf "$work"
}
trap cleanup EXIT

start_hale() {  # port, log
    HALE_SERVER_PORT=$1 "$binary" serve >"$2" 2>&1 &
    pids+=($!)
    for _ in $(seq 1 150); do
        curl -fsS "http://127.0.0.1:$1/readyz" >/dev/null 2>&1 && return 0
        kill -0 "${pids[-1]}" 2>/dev/null || { cat "$2"; exit 1; }
        sleep 0.2
    done
    echo "hale serve on $1 never became ready" >&2; tail -n 30 "$2"; exit 1
}

e2e_create_database hale_multi
first=$(free_port)
second=$(free_port)
tls=$(free_port)
plain=$(free_port)
e2e_export_environment "$first"
export HALE_DATABASE_MIGRATE_ON_START=false HALE_SERVER_TRUSTED_PROXIES=127.0.0.1
export HALE_SERVER_PUBLIC_URL="https://127.0.0.1:$tls"
export HALE_WEBHOOKS_DELIVERY_INTERVAL=250ms HALE_WEBHOOKS_RETRY_SCHEDULE=1s,1s,1s
export HALE_RATE_LIMITS_DEVICE_KEYS_PER_IP=1000000/1m HALE_RATE_LIMITS_DEVICE_KEYS_PER_FINGERPRINT=1000000/1m
export HALE_RATE_LIMITS_REFRESH_PER_IP=1000000/1m HALE_RATE_LIMITS_SIGN_IN_PER_IP=1000000/1m
"$binary" migrate >"$work/migrate.log" 2>&1 || { cat "$work/migrate.log"; exit 1; }
admin_key=$("$binary" admin-keys create --name load | "$python" -c 'import json,sys; print(json.load(sys.stdin)["key"])')
instances=${HALE_MULTI_INSTANCES:-2}
start_hale "$first" "$work/hale-1.log"
if [ "$instances" -eq 2 ]; then start_hale "$second" "$work/hale-2.log"; else second=$first; fi

# nginx with the shipped site, on loopback: its ports, a certificate for 127.0.0.1, the two instances upstream.
mkdir -p "$work/nginx/temp"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj /CN=127.0.0.1 \
    -addext "subjectAltName=IP:127.0.0.1" -keyout "$work/nginx/key.pem" -out "$work/nginx/cert.pem" 2>/dev/null
sed -e "s|listen 80;|listen 127.0.0.1:$plain;|; s|listen 443 ssl http2;|listen 127.0.0.1:$tls ssl http2;|" \
    -e '/listen \[::\]/d' -e "s|server 127.0.0.1:8081|server 127.0.0.1:$first|; s|server 127.0.0.1:8082|server 127.0.0.1:$second|" \
    -e "s|/etc/letsencrypt/live/id.example.com/fullchain.pem|$work/nginx/cert.pem|" \
    -e "s|/etc/letsencrypt/live/id.example.com/privkey.pem|$work/nginx/key.pem|" \
    -e "s|/etc/nginx/hale_proxy.conf|$deploy/nginx/hale_proxy.conf|" -e "s|allow 10.0.0.0/8;|allow 127.0.0.1;|" \
    "$deploy/nginx/hale.conf" >"$work/nginx/hale.conf"
cat >"$work/nginx/nginx.conf" <<CONF
worker_processes 2;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path $work/nginx/temp/body;
    proxy_temp_path $work/nginx/temp/proxy;
    include $work/nginx/hale.conf;
}
CONF
nginx -t -q -p "$work/nginx" -c "$work/nginx/nginx.conf"
nginx -p "$work/nginx" -c "$work/nginx/nginx.conf"
for _ in $(seq 1 50); do curl -fsS --cacert "$work/nginx/cert.pem" "https://127.0.0.1:$tls/readyz" >/dev/null 2>&1 && break; sleep 0.1; done
curl -fsS --http2 --cacert "$work/nginx/cert.pem" -o /dev/null -w 'through nginx: HTTP/%{http_version} %{http_code}\n' \
    "https://127.0.0.1:$tls/readyz"

status=0
"$python" "$here/load.py" --url "https://127.0.0.1:$tls" --cafile "$work/nginx/cert.pem" --admin-key "$admin_key" \
    --binary "$binary" --seconds "$seconds" --state "$work/state.json" | tee "$work/summary.json" || status=$?
for index in $(seq 1 "$instances"); do
    if ! kill -0 "${pids[$((index - 1))]}" 2>/dev/null; then echo "hale serve $index died" >&2; tail -n 40 "$work/hale-$index.log"; exit 1; fi
    grep -q "webhook delivery pass" "$work/hale-$index.log" && echo "instance $index delivered webhooks"
done
if [ "$status" -ne 0 ]; then
    for index in $(seq 1 "$instances"); do echo "== hale $index"; tail -n 30 "$work/hale-$index.log"; done
    exit "$status"
fi
"$binary" audit verify
echo "the audit chain verifies after the load"

# Backup and restore: a dump of the live database, restored into a new one, is a working Hale.
"$pg_bin/pg_dump" --format=custom --file="$work/hale.dump" "$url"
restored="hale_restored_$$_$RANDOM"
restored_url=$("$python" "$here/../hostile/postgres_database.py" create "$database" "$restored")
"$pg_bin/pg_restore" --no-owner --dbname="$restored_url" "$work/hale.dump"
HALE_DATABASE_URL="$restored_url" "$binary" audit verify
third=$(free_port)
HALE_DATABASE_URL="$restored_url" start_hale "$third" "$work/hale-restored.log"
"$python" "$here/load.py" --url "http://127.0.0.1:$third" --cafile "$work/nginx/cert.pem" --sign-in-from "$work/state.json"
echo "restored from pg_dump: the audit chain verifies and a person signs in"
kill "$(cat "$work/nginx/nginx.pid")"
for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
for pid in "${pids[@]}"; do for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done; done
pids=()
