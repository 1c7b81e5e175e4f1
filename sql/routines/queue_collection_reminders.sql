-- Reminds each customer whose ready order is still uncollected once its pickup token's expiry is
-- within the store's `reminder_before` (0: never), if they want reminders: one message per
-- order (its moment is the order), however often and on however many instances the expiry
-- sweep runs it. Answers how many were queued now.
CREATE OR REPLACE FUNCTION queue_collection_reminders() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
    v_order record;
    v_count integer := 0;
BEGIN
    FOR v_order IN
        SELECT o.id, o.store_id, o.customer_id, t.expires_at
        FROM orders o
        JOIN pickup_tokens t ON t.order_id = o.id
        JOIN stores s ON s.id = o.store_id
        JOIN users u ON u.id = o.customer_id
        WHERE o.status IN ('packaged', 'delivering') AND t.used_at IS NULL
          AND s.reminder_before > interval '0'
          AND t.expires_at > now() AND t.expires_at - s.reminder_before <= now()
          AND u.wants_reminders
          AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.order_id = o.id AND m.kind = 'collection_reminder')
        ORDER BY t.expires_at
        LIMIT 500
    LOOP
        IF queue_message(v_order.store_id, v_order.id, v_order.customer_id, 'collection_reminder', v_order.id::text,
                         jsonb_build_object('expiresAt', api_time(v_order.expires_at))) IS NOT NULL THEN
            v_count := v_count + 1;
        END IF;
    END LOOP;
    RETURN v_count;
END $$;
