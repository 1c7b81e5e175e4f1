# Shared by the benchmarks: a release build, a throwaway cluster, the service on a free port, and
# a benchmark store with products, customers and a staff member signed in through the API.
# Sourced (not run) after the caller has set: clients, products, build, a `bench_name`, and
# optionally `serve_env` (an array of NAME=value for the service).
# Leaves: bin, helper, scratch, conninfo, port, url, server_pid, postmaster_pid, pids, psql_q,
# password, the files $scratch/sessions.json and $scratch/products.txt, and in the database the
# bench schema: bench.store(), bench.staff(), bench.customer(n), bench.product(n), and the
# sessions' token hashes bench.session_hash(n) (customer n) and bench.staff_session_hash(n).

# BENCH_BINARY: another build of `fulfilment` (a debug one, to try a script out; its figures mean little).
bin=${BENCH_BINARY:-.build/release/fulfilment}
if [ -z "${BENCH_BINARY:-}" ] && { [ "$build" = 1 ] || [ ! -x "$bin" ]; }; then
    echo "Building the release binary (several minutes on a 2-core machine)..."
    swift build -c release --product fulfilment
fi
helper=(python3 -B scripts/bench/checkout_bench.py)

scratch=$(mktemp -d "/tmp/$bench_name.XXXXXX")
chmod 755 "$scratch"   # the postgres user must reach the cluster folder inside
server_pid=
cleanup() {
    local status=$?
    if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
        kill -TERM "$server_pid" 2>/dev/null || true
        for _ in $(seq 1 50); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.2; done
        kill -KILL "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    if [ "$status" -ne 0 ] && [ -s "$scratch/serve.log" ]; then
        echo "--- last lines of the service log:" >&2
        tail -n 20 "$scratch/serve.log" >&2
    fi
    "$bin" postgres stop --data-dir "$scratch/pg" >/dev/null 2>&1 || true
    if [ -n "${BENCH_KEEP:-${CHECKOUT_BENCH_KEEP:-}}" ]; then echo "kept $scratch" >&2; else rm -rf "$scratch"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

elapsed() { awk -v a="$(date +%s.%N)" -v b="$1" 'BEGIN { printf "%.1f s", a - b }'; }
started=$(date +%s.%N)


# ---- PostgreSQL, keys, the service ------------------------------------------------------------
conninfo=$("$bin" postgres start --data-dir "$scratch/pg")
if [ "${BENCH_STATEMENTS:-0}" = 1 ]; then
    # Per-statement counts and times (pg_stat_statements), for finding where PostgreSQL's CPU goes;
    # off by default, as it costs a little itself.
    psql "$conninfo" -X -qtA -c "ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'" >/dev/null
    "$bin" postgres stop --data-dir "$scratch/pg" >/dev/null
    conninfo=$("$bin" postgres start --data-dir "$scratch/pg")
    psql "$conninfo" -X -qtA -c "CREATE EXTENSION IF NOT EXISTS pg_stat_statements" \
        -c "ALTER SYSTEM SET pg_stat_statements.track = 'all'" -c "ALTER SYSTEM SET pg_stat_statements.track_planning = on" \
        -c "SELECT pg_reload_conf()" >/dev/null
fi
"$bin" keys generate --dir "$scratch/keys" >/dev/null
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
url=http://127.0.0.1:$port
env DATABASE_URL="$conninfo" FULFILMENT_KEYS_DIR="$scratch/keys" FULFILMENT_BCRYPT_COST=4 ${serve_env[@]+"${serve_env[@]}"} \
    "$bin" serve --host 127.0.0.1 --port "$port" >"$scratch/serve.log" 2>&1 &
server_pid=$!
for i in $(seq 1 240); do
    curl -fsS -o /dev/null "$url/readyz" 2>/dev/null && break
    kill -0 "$server_pid" 2>/dev/null || { echo "the service exited during start-up" >&2; exit 1; }
    [ "$i" -lt 240 ] || { echo "the service was not ready after 120 s" >&2; exit 1; }
    sleep 0.5
done

psql_q() { psql "$conninfo" -X -v ON_ERROR_STOP=1 -qtA "$@"; }
postmaster_pid=$(head -n 1 "$scratch/pg/cluster/postmaster.pid")
pids=(--server-pid "$server_pid" --postmaster-pid "$postmaster_pid")   # for CPU seconds per operation

# ---- setup ------------------------------------------------------------------------------------
password=checkout-bench-password
psql_q <<'SQL'
BEGIN;
-- Fixed ids, so the pgbench scripts can name rows without a lookup. IMMUTABLE SQL functions of
-- constants are folded when a statement is planned.
CREATE SCHEMA bench;
CREATE FUNCTION bench.store() RETURNS uuid IMMUTABLE LANGUAGE sql
    AS $$ SELECT '5e000000-0000-4000-8000-000000000001'::uuid $$;
CREATE FUNCTION bench.staff() RETURNS uuid IMMUTABLE LANGUAGE sql
    AS $$ SELECT 'a0000000-0000-4000-8000-000000000001'::uuid $$;
CREATE FUNCTION bench.customer(n int) RETURNS uuid IMMUTABLE LANGUAGE sql
    AS $$ SELECT ('c0000000-0000-4000-8000-' || lpad(n::text, 12, '0'))::uuid $$;
CREATE FUNCTION bench.product(n int) RETURNS uuid IMMUTABLE LANGUAGE sql
    AS $$ SELECT ('9d000000-0000-4000-8000-' || lpad(n::text, 12, '0'))::uuid $$;
INSERT INTO stores (id, code, name, address, currency)
VALUES (bench.store(), 'CKBENCH', 'Checkout benchmark store', 'generated', 'JMD');
COMMIT;
SQL
psql_q -v first=1 -v last="$products" -f scripts/bench/products.sql
# One account through the API gives a bcrypt hash (cost 4) the others share.
curl -fsS -o /dev/null -H 'Content-Type: application/json' -X POST "$url/v1/auth/register" \
    -d "{\"email\":\"template@checkout-bench.example\",\"name\":\"Template\",\"password\":\"$password\",\"passwordConfirmation\":\"$password\"}"
psql_q -v clients="$clients" <<'SQL'
BEGIN;
INSERT INTO users (id, email, name, password_hash, role)
SELECT bench.customer(g), 'customer' || g || '@checkout-bench.example', 'Customer ' || g, u.password_hash, 'customer'
FROM generate_series(1, :clients) g, users u WHERE u.email = 'template@checkout-bench.example';
INSERT INTO users (id, email, name, password_hash, role, store_id)
SELECT bench.staff(), 'staff@checkout-bench.example', 'Desk Staff', u.password_hash, 'staff', bench.store()
FROM users u WHERE u.email = 'template@checkout-bench.example';
INSERT INTO customer_stores (user_id, store_id) SELECT bench.customer(g), bench.store() FROM generate_series(1, :clients) g;
INSERT INTO carts (customer_id, store_id) SELECT bench.customer(g), bench.store() FROM generate_series(1, :clients) g;
COMMIT;
SQL
customers=() staff=()
for i in $(seq 1 "$clients"); do customers+=("customer$i@checkout-bench.example"); staff+=(staff@checkout-bench.example); done
"${helper[@]}" signin --port "$port" --password "$password" --customers "${customers[@]}" --staff "${staff[@]}" \
    --out "$scratch/sessions.json"
# The sessions' tokens for SQL run beside the service (the pgbench scripts): bench.session_hash(n)
# and bench.staff_session_hash(n) are the SHA-256 of customer n's and staff session n's token
# (SessionToken.hash), as constants a statement folds when it is planned, like bench.customer(n).
python3 -c '
import json, sys
sessions = json.load(open(sys.argv[1]))
for role in ("customers", "staff"):
    for n, token in enumerate(sessions[role], 1):
        print(f"{role}\t{n}\t{token}")' "$scratch/sessions.json" >"$scratch/sessions.tsv"
psql_q -c "CREATE TABLE bench.session_tokens (role text, n integer, token text NOT NULL, PRIMARY KEY (role, n))"
psql_q -c "COPY bench.session_tokens FROM STDIN" <"$scratch/sessions.tsv"
matched=$(psql_q <<'SQL'
DO $$
DECLARE
    f record;
BEGIN
    FOR f IN SELECT CASE role WHEN 'customers' THEN 'session_hash' ELSE 'staff_session_hash' END AS name,
                    array_agg(sha256(convert_to(token, 'UTF8')) ORDER BY n) AS hashes
             FROM bench.session_tokens GROUP BY role
    LOOP
        EXECUTE format('CREATE FUNCTION bench.%I(n integer) RETURNS bytea IMMUTABLE LANGUAGE sql AS %L',
                       f.name, format('SELECT (%L::bytea[])[n]', f.hashes));
    END LOOP;
END $$;
SELECT count(*) FROM sessions s JOIN bench.session_tokens t ON s.token_hash = sha256(convert_to(t.token, 'UTF8'))
WHERE s.ended_at IS NULL;
SQL
)
[ "$matched" = "$(($(wc -l <"$scratch/sessions.tsv")))" ] \
    || { echo "only $matched of the sessions signed in are found by the SHA-256 of their tokens" >&2; exit 1; }
psql_q -c "SELECT bench.product(g) FROM generate_series(1, $products) g" >"$scratch/products.txt"
psql_q -c "VACUUM ANALYZE"
echo "setup: cluster, service on port $port, store CKBENCH, $products products, $clients customers + 1 staff ($(elapsed "$started"))"

