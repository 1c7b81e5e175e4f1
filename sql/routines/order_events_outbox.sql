-- An order's history entry is its event (order_events_outbox.trigger.sql, at commit). A row whose
-- `from_status` equals its `to_status` is the ready message sent again by staff; one of another
-- `kind` (issue 27) is `order.<kind>`.
CREATE OR REPLACE FUNCTION order_events_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    event_type text;
    payload jsonb := jsonb_build_object('order', order_summary_json(NEW.order_id));
BEGIN
    IF NEW.kind <> 'status' THEN
        -- A substitution proposed or decided, the customer's arrival (issue 27): `order.` and
        -- the kind, with what the entry adds (the substitution, the bay).
        event_type := 'order.' || NEW.kind;
        payload := payload || coalesce(NEW.detail, '{}'::jsonb);
    ELSIF NEW.from_status IS NOT DISTINCT FROM NEW.to_status THEN
        event_type := 'order.ready_for_pickup';
        payload := payload || jsonb_build_object('repeated', true);
    ELSE
        event_type := CASE NEW.to_status
            WHEN 'pending' THEN 'order.placed'
            WHEN 'packaged' THEN 'order.ready_for_pickup'
            WHEN 'delivering' THEN 'order.at_collection_point'
            WHEN 'completed' THEN 'order.collected'
            WHEN 'cancelled' THEN 'order.cancelled'
        END;
        IF NEW.to_status = 'cancelled' THEN
            payload := payload || jsonb_build_object('reason', NEW.reason, 'byStaff', NEW.actor_id IS NOT NULL
                AND EXISTS (SELECT 1 FROM users u WHERE u.id = NEW.actor_id AND u.role <> 'customer'));
        END IF;
    END IF;
    PERFORM emit_event(NEW.store_id, event_type, NEW.order_id, jsonb_strip_nulls(payload));
    RETURN NULL;
END $$;
