-- The webhook dispatcher's claim (WebhookDeliveryQueries.claim): up to p_limit due deliveries of
-- enabled endpoints, leased for p_lease_seconds (attempts counted), with what sending needs: the
-- endpoint's sealed secret and its key (or a plain one not sealed yet) and the event's body.
--
-- A slow endpoint delays no other (issue 24): each endpoint is a lane of at most p_per_endpoint
-- attempts in flight, counted over every instance, here in the database. In flight: the claim
-- sets `leased_until` to the lease it puts in `next_attempt_at`; a delivery is in flight while
-- the two are equal and in the future. Recording the attempt ends it without touching the
-- column: a success leaves `pending`, a failure moves `next_attempt_at` to the retry (were the
-- two ever equal by chance, the lane would look busy only until the retry is due). A crashed
-- instance's attempts hold their lane until their lease runs out.
--
-- The count cannot race another instance's claim: the claim first locks the endpoints it will
-- hand out (FOR NO KEY UPDATE ... SKIP LOCKED: a second claimer skips them this time, and event
-- numbering's foreign-key checks are not blocked), then counts and claims in a second statement,
-- whose snapshot sees every claim committed before the lock was taken. PL/pgSQL, so its plans
-- are kept: every instance's dispatcher runs it whenever a store with an endpoint has events.
CREATE OR REPLACE FUNCTION claim_webhook_deliveries(p_limit integer, p_lease_seconds double precision, p_per_endpoint integer)
RETURNS TABLE (id uuid, endpoint_id uuid, event_id uuid, attempts integer, url text, secret text, secret_key_id integer,
               secret_sealed bytea, body text)
LANGUAGE plpgsql AS $$
DECLARE
    v_endpoints uuid[];
BEGIN
    -- Enabled endpoints with a numbered delivery due and room in their lane, earliest due first.
    SELECT array_agg(locked.id) INTO v_endpoints FROM (
        SELECT w.id FROM webhook_endpoints w
        JOIN (SELECT due.endpoint_id AS endpoint, min(due.next_attempt_at) AS due_at
              FROM webhook_deliveries due JOIN events de ON de.id = due.event_id
              -- Numbered events only (number_events numbers them after commit): a body carries its sequence.
              WHERE due.status = 'pending' AND due.next_attempt_at <= now() AND de.sequence IS NOT NULL
              GROUP BY due.endpoint_id) d ON d.endpoint = w.id
        WHERE w.enabled
          AND (SELECT count(*) FROM webhook_deliveries f
               WHERE f.endpoint_id = w.id AND f.status = 'pending' AND f.next_attempt_at > now()
                 AND f.leased_until = f.next_attempt_at) < p_per_endpoint
        ORDER BY d.due_at
        LIMIT p_limit
        FOR NO KEY UPDATE OF w SKIP LOCKED) locked;
    IF v_endpoints IS NULL THEN
        RETURN;
    END IF;

    RETURN QUERY
    WITH in_flight AS (
        SELECT f.endpoint_id AS endpoint, count(*) AS n FROM webhook_deliveries f
        WHERE f.endpoint_id = ANY (v_endpoints) AND f.status = 'pending' AND f.next_attempt_at > now()
          AND f.leased_until = f.next_attempt_at
        GROUP BY f.endpoint_id),
    ranked AS (
        SELECT due.id AS delivery, due.next_attempt_at AS due_at,
               row_number() OVER (PARTITION BY due.endpoint_id ORDER BY due.next_attempt_at, due.id) + coalesce(i.n, 0) AS place
        FROM webhook_deliveries due
        JOIN events de ON de.id = due.event_id
        LEFT JOIN in_flight i ON i.endpoint = due.endpoint_id
        WHERE due.endpoint_id = ANY (v_endpoints) AND due.status = 'pending' AND due.next_attempt_at <= now()
          AND de.sequence IS NOT NULL),
    chosen AS (
        SELECT r.delivery FROM ranked r WHERE r.place <= p_per_endpoint ORDER BY r.due_at LIMIT p_limit)
    UPDATE webhook_deliveries d
    SET next_attempt_at = now() + p_lease_seconds * interval '1 second',
        leased_until = now() + p_lease_seconds * interval '1 second',
        attempts = d.attempts + 1, last_attempt_at = now()
    FROM chosen c, webhook_endpoints w, events e
    WHERE d.id = c.delivery AND d.status = 'pending' AND d.next_attempt_at <= now()
      AND w.id = d.endpoint_id AND e.id = d.event_id
    RETURNING d.id, d.endpoint_id, d.event_id, d.attempts, w.url, w.secret, w.secret_key_id, w.secret_sealed, event_json(e);
END
$$;
