-- 009_account_hardening: staff accounts a manager can disable, why a session ended, and
-- sign-in throttling counted per account, per client address and per both (issue 10, item 9).

-- A disabled account cannot sign in and has no live session; enabling it again does not
-- revive the sessions that disabling ended.
ALTER TABLE users ADD COLUMN disabled_at timestamptz;

-- Why a session ended, for whoever reads the table after an incident. Idle and absolute
-- expiry are computed when a token is presented, so an expired session may have no reason.
ALTER TABLE sessions ADD COLUMN ended_reason text
    CHECK (ended_reason IN ('logout', 'disabled', 'password_changed'));
CREATE INDEX sessions_live_by_user ON sessions (user_id) WHERE ended_at IS NULL;

-- Sign-in attempts in the current window, one row per key:
--   ('ann@example.com', '')            the account, from anywhere (the larger ceiling)
--   ('', '203.0.113.7')                one client address, for any account
--   ('ann@example.com', '203.0.113.7') the account from that address
-- An attempt is reserved (`pending`) with one conditional upsert before its bcrypt runs and
-- refused when `failures + pending` has reached the key's limit, so parallel guesses cannot
-- exceed it. When the password has been checked the reservation becomes a failure, or is
-- given back; a key left with no failures and nothing in flight is deleted.
CREATE TABLE login_throttle (
    email_key          text NOT NULL,
    address            text NOT NULL,
    failures           integer NOT NULL CHECK (failures >= 0),
    pending            integer NOT NULL CHECK (pending >= 0),
    window_started_at  timestamptz NOT NULL,
    PRIMARY KEY (email_key, address),
    CHECK (email_key <> '' OR address <> '')
);

-- Replaced by login_throttle: it counted per email only, after the bcrypt.
DROP TABLE login_failures;
