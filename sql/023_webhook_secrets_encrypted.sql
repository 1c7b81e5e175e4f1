-- Webhook signing secrets encrypted at rest (issue 24): a dump alone reveals no secret.
--
-- Each secret is sealed with AES-256-GCM under a data key kept in the keys folder
-- (`data-key-NNNNN.aes`, mode 0600), never in the database. `secret_key_id` names the key,
-- `secret_sealed` is the nonce, ciphertext and tag; the associated data is the endpoint's id, so
-- a ciphertext copied to another row does not open. `data_keys` lists the keys rows may be sealed
-- under, each with a fingerprint (an HMAC of a fixed label under the key), so an instance holding
-- another key under the same id is refused at start; the foreign key keeps a key listed while a
-- row uses it. A writer takes the newest key row FOR KEY SHARE; the rotation
-- (`fulfilment keys rotate-data-key`) locks data_keys, then webhook_endpoints, re-seals every
-- row under a new key and deletes the older keys' rows (see WebhookSecretStorage).
--
-- The plain column stays for the upgrade: at start, before it serves, the service seals every
-- secret still stored plain, clearing the plain text in the same UPDATE, in one transaction; a
-- row holds exactly one of the two.
CREATE TABLE data_keys (
    id           integer PRIMARY KEY CHECK (id BETWEEN 1 AND 65535),
    fingerprint  bytea NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now()
);

ALTER TABLE webhook_endpoints
    ALTER COLUMN secret DROP NOT NULL,
    ADD COLUMN secret_key_id integer REFERENCES data_keys (id),
    ADD COLUMN secret_sealed bytea,
    ADD CONSTRAINT webhook_endpoints_one_secret CHECK (
        (secret_sealed IS NULL) = (secret_key_id IS NULL) AND (secret IS NULL) <> (secret_sealed IS NULL));

-- The claim of 018, returning the sealed secret and its key (and a plain one not sealed yet).
DROP FUNCTION claim_webhook_deliveries(integer, double precision);
CREATE FUNCTION claim_webhook_deliveries(p_limit integer, p_lease_seconds double precision)
RETURNS TABLE (id uuid, endpoint_id uuid, event_id uuid, attempts integer, url text, secret text, secret_key_id integer,
               secret_sealed bytea, body text)
LANGUAGE plpgsql AS $$
BEGIN
    RETURN QUERY
    UPDATE webhook_deliveries d
    SET next_attempt_at = now() + p_lease_seconds * interval '1 second', attempts = d.attempts + 1,
        last_attempt_at = now()
    FROM webhook_endpoints w, events e
    WHERE d.id IN (
        SELECT due.id FROM webhook_deliveries due
        JOIN webhook_endpoints dw ON dw.id = due.endpoint_id
        JOIN events de ON de.id = due.event_id
        -- Numbered events only (migration 019 numbers them after commit): a body carries its sequence.
        WHERE due.status = 'pending' AND due.next_attempt_at <= now() AND dw.enabled AND de.sequence IS NOT NULL
        ORDER BY due.next_attempt_at
        LIMIT p_limit
        FOR UPDATE OF due SKIP LOCKED)
      AND w.id = d.endpoint_id AND e.id = d.event_id
    RETURNING d.id, d.endpoint_id, d.event_id, d.attempts, w.url, w.secret, w.secret_key_id, w.secret_sealed, event_json(e);
END
$$;
