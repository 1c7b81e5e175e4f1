-- ID tokens an app exchanged for a session (POST /v1/auth/oidc/token), by their SHA-256, until
-- they expire: a token is exchanged once, so one intercepted or replayed is refused (issue 41).
-- Not a store's: sign-in is the chain's. Expired rows are forgotten as new ones arrive.
CREATE TABLE exchanged_id_tokens (
    token_hash  bytea PRIMARY KEY CHECK (length(token_hash) = 32),
    expires_at  timestamptz NOT NULL
);
CREATE INDEX exchanged_id_tokens_expiry ON exchanged_id_tokens (expires_at);
