-- 002_accounts: customers, staff and managers; sessions; login throttling.

CREATE TABLE users (
    id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    -- Stored trimmed; unique regardless of case.
    email          text NOT NULL CHECK (email = btrim(email) AND length(email) BETWEEN 3 AND 254),
    name           text NOT NULL CHECK (length(btrim(name)) > 0),
    password_hash  text NOT NULL,
    role           text NOT NULL CHECK (role IN ('customer', 'staff', 'manager')),
    -- Staff and managers belong to one store; customers to none.
    store_id       uuid REFERENCES stores (id),
    created_at     timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT users_store_matches_role CHECK ((role = 'customer') = (store_id IS NULL))
);

CREATE UNIQUE INDEX users_email_key ON users (lower(email));
CREATE INDEX users_store ON users (store_id) WHERE store_id IS NOT NULL;

-- A session lasts until logout. Only the SHA-256 of its token is stored.
CREATE TABLE sessions (
    id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id       uuid NOT NULL REFERENCES users (id),
    token_hash    bytea NOT NULL UNIQUE CHECK (length(token_hash) = 32),
    created_at    timestamptz NOT NULL DEFAULT now(),
    last_used_at  timestamptz NOT NULL DEFAULT now(),
    ended_at      timestamptz
);

CREATE INDEX sessions_user ON sessions (user_id);

-- Failed logins per email (lower-cased), for throttling across every instance.
CREATE TABLE login_failures (
    email_key        text PRIMARY KEY,
    failures         integer NOT NULL CHECK (failures > 0),
    first_failed_at  timestamptz NOT NULL,
    locked_until     timestamptz
);
