# Shared by the e2e runners (account, hostile, supabase): the database a run uses and the environment `hale` runs
# in. Source it after setting `database` (sqlite:PATH or a postgres:// URL), `python` and `work`; it sets `url` and
# `created_database`.
e2e_lib=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
created_database=""

# sqlite:PATH is deleted first; a postgres:// server gets a database of a unique name, starting with $1.
e2e_create_database() {
    case "$database" in
        sqlite:*)
            rm -f "${database#sqlite:}" "${database#sqlite:}-wal" "${database#sqlite:}-shm"
            url=$database ;;
        postgres://* | postgresql://*)
            created_database="$1_$$_$RANDOM"
            url=$("$python" "$e2e_lib/../hostile/postgres_database.py" create "$database" "$created_database") ;;
        *) echo "DATABASE_URL must be sqlite:PATH or postgres://…" >&2; exit 2 ;;
    esac
}

# Drops the database e2e_create_database made, if it made one.
e2e_drop_database() {
    if [ -n "$created_database" ]; then
        "$python" "$e2e_lib/../hostile/postgres_database.py" drop "$database" "$created_database" || true
    fi
}

# `hale` on $1, with its own files (uploads; with SQLite its key-encryption key) in this run's folder, and under
# PostgreSQL, which keeps no key of its own, a key-encryption key made for the run.
e2e_export_environment() {
    export HALE_DATABASE_URL="$url" HALE_SERVER_PORT="$1" HALE_SERVER_HOST=127.0.0.1
    export HALE_SERVER_DATA_DIRECTORY="$work/data"
    case "$url" in
        postgres*) export HALE_SECRETS_KEY_ENCRYPTION_KEY="$("$python" -c 'import base64,os; print(base64.b64encode(os.urandom(32)).decode())')" ;;
    esac
}
