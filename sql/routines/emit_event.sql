-- One event, unnumbered: the row, a delivery for every enabled endpoint that wants it, the mail
-- it means for a customer (queue_event_messages), and a NOTIFY (sent at commit) that asks every instance to number the store's new events
-- (number_events). Called only from the deferred outbox triggers (*_outbox.trigger.sql), so at
-- commit; it takes no lock of its own.
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
    PERFORM queue_event_messages(new_id, p_store, p_type, p_order, p_data);
    PERFORM pg_notify('fulfilment_events', p_store::text);
END $$;
