-- The webhook dispatcher woken only for a store with somewhere to send (issue 15).
--
-- number_events (migration 019) notified `<store id> <last>` after every round, and that woke the
-- webhook dispatcher of every instance as well as the store's live streams: at checkout-bench's
-- rate that was a claim statement (claim_webhook_deliveries) for about every second checkout,
-- almost all of them finding nothing, since most stores have no endpoint. Now a round notifies
-- `<store id> <last> webhooks` when the store has an enabled endpoint of its own or the chain has
-- one, and `<store id> <last>` otherwise; the dispatcher wakes on the first form only. The
-- deliveries themselves are written as before, by emit_event, so nothing is lost whichever form
-- is sent: an endpoint disabled or enabled between an event and its numbering costs at most one
-- needless claim or one poll interval (FULFILMENT_WEBHOOK_POLL_MS), as a missed NOTIFY already did.
-- The body is 019's but for the last NOTIFY.
CREATE OR REPLACE FUNCTION number_events(p_store uuid) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    v_last bigint;
    v_count bigint;
BEGIN
    IF NOT pg_try_advisory_xact_lock(1701, hashtext(p_store::text)) THEN
        RETURN NULL;
    END IF;
    SELECT s.last INTO v_last FROM event_sequences s WHERE s.store_id = p_store;
    v_last := coalesce(v_last, 0);
    WITH todo AS (
        SELECT e.id, row_number() OVER (ORDER BY e.position) AS n
        FROM events e WHERE e.store_id = p_store AND e.sequence IS NULL
    )
    UPDATE events e SET sequence = v_last + todo.n FROM todo WHERE e.id = todo.id;
    GET DIAGNOSTICS v_count = ROW_COUNT;
    IF v_count = 0 THEN
        RETURN v_last;
    END IF;
    INSERT INTO event_sequences AS s (store_id, last) VALUES (p_store, v_last + v_count)
    ON CONFLICT (store_id) DO UPDATE SET last = EXCLUDED.last;
    PERFORM pg_notify('fulfilment_events', p_store::text || ' ' || (v_last + v_count)::text
        || CASE WHEN EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.enabled AND (w.store_id IS NULL OR w.store_id = p_store))
                THEN ' webhooks' ELSE '' END);
    RETURN v_last + v_count;
END $$;
