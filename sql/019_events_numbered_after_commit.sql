-- Events numbered after they commit (issue 15), so a store's commits no longer wait on each other.
--
-- Until now emit_event took the store's event_sequences row at commit and held it through the
-- commit's WAL flush, so a store's commits ran one at a time: checkout-bench's ceiling statement
-- ran 379 tps with 1 client, 435 with 16, 838 with the outbox's triggers off. That lock is what
-- made "a reader that has seen sequence n has seen everything before it" true.
--
-- Now an event is written unnumbered and notified as `<store id>`. Every instance's EventBus
-- hears that and calls number_events(store): under the store's numbering lock (one numberer at a
-- time; the others skip, as the one running will run again for what it has not seen), it numbers
-- the store's committed, unnumbered events in the order they were written, one after the last,
-- and notifies `<store id> <last sequence>`, which wakes the streams and the webhook dispatcher.
-- An event is numbered only once it is visible, and numbers are given in one transaction at a
-- time, so the promise holds as before: streams (`sequence > n`) and webhook deliveries read only
-- numbered events, and a store's numbers still run 1, 2, 3... without gaps.
ALTER TABLE events ALTER COLUMN sequence DROP NOT NULL;
-- The order events were written in (identity, so every event has one): the order of numbering.
ALTER TABLE events ADD COLUMN position bigint GENERATED ALWAYS AS IDENTITY;
CREATE INDEX events_unnumbered ON events (store_id, position) WHERE sequence IS NULL;

-- One event, unnumbered: the row, a delivery for every enabled endpoint that wants it, and a
-- NOTIFY (sent at commit) that asks every instance to number the store's new events. Called only
-- from the deferred triggers of migration 013, so at commit; it takes no lock of its own.
CREATE OR REPLACE FUNCTION emit_event(p_store uuid, p_type text, p_order uuid, p_data jsonb) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    new_id uuid := gen_random_uuid();
BEGIN
    INSERT INTO events (id, store_id, type, order_id, data) VALUES (new_id, p_store, p_type, p_order, p_data);
    INSERT INTO webhook_deliveries (store_id, endpoint_id, event_id)
    SELECT p_store, w.id, new_id
    FROM webhook_endpoints w
    WHERE w.enabled AND (w.store_id IS NULL OR w.store_id = p_store)
      AND (cardinality(w.event_types) = 0 OR p_type = ANY (w.event_types));
    PERFORM pg_notify('fulfilment_events', p_store::text);
END $$;

-- Numbers the store's committed, unnumbered events in the order they were written, after the
-- store's last number, and notifies `<store id> <last>`. Returns the store's last number, or
-- NULL when another transaction is numbering the store right now (it runs again for anything it
-- missed, as every instance hears every event's NOTIFY). The lock is a transaction-scoped
-- advisory lock per store (class 1701): no row need exist first, and it ends with the call.
CREATE FUNCTION number_events(p_store uuid) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    v_last bigint;
    v_count bigint;
BEGIN
    IF NOT pg_try_advisory_xact_lock(1701, hashtext(p_store::text)) THEN
        RETURN NULL;
    END IF;
    -- A new statement, so a new snapshot: every event committed before the lock was taken, and
    -- the last numberer's work, are seen.
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
    PERFORM pg_notify('fulfilment_events', p_store::text || ' ' || (v_last + v_count)::text);
    RETURN v_last + v_count;
END $$;
