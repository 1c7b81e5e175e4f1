-- Numbers the store's committed, unnumbered events in the order they were written, after the
-- store's last number, and notifies; returns the store's last number, or NULL when another
-- transaction is numbering the store right now (it runs again for anything it missed, as every
-- instance hears every event's NOTIFY). The lock is a transaction-scoped advisory lock per store
-- (class 1701): no row need exist first, and it ends with the call.
--
-- Events are numbered after they commit (issue 15), so a store's commits do not wait on each
-- other: emit_event writes an event unnumbered and notifies `<store id>`; every instance's
-- EventBus hears that and calls this. An event is numbered only once it is visible, and numbers
-- are given in one transaction at a time, so a reader that has seen sequence n has seen
-- everything before it: streams (`sequence > n`) and webhook deliveries read only numbered
-- events, and a store's numbers run 1, 2, 3... without gaps.
--
-- A round notifies `<store id> <last> webhooks` when the store has an enabled endpoint of its own
-- or the chain has one, and `<store id> <last>` otherwise: the streams wake on both, the webhook
-- dispatcher on the first only, so stores without endpoints cost no claim statement. The
-- deliveries themselves are written by emit_event whatever is sent: an endpoint disabled or
-- enabled between an event and its numbering costs at most one needless claim or one poll
-- interval (FULFILMENT_WEBHOOK_POLL_MS), as a missed NOTIFY does.
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
