-- The mail an event means (emit_event calls it, so in the transaction of the change, at its
-- commit): the customer is told their order was placed, is ready (again, when staff resend it),
-- has a substitution to decide, or was cancelled; and, only with their consent
-- (wants_back_in_stock), that a favourite is back. Other events send no mail.
--
-- One statement per message, the customer's address and a bounce found by joins: a checkout's
-- receipt is written with its commit and costs no round trip (issue 44). No notification of its
-- own: emit_event's wakes every instance's sender (EventBus, `written`).
CREATE OR REPLACE FUNCTION queue_event_messages(p_event uuid, p_store uuid, p_type text, p_order uuid, p_data jsonb)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    v_kind text := CASE p_type
        WHEN 'order.placed' THEN 'order_placed'
        WHEN 'order.ready_for_pickup' THEN 'ready_for_pickup'
        WHEN 'order.substitution_proposed' THEN 'substitution_proposed'
        WHEN 'order.cancelled' THEN 'order_cancelled'
        WHEN 'favourite.back_in_stock' THEN 'back_in_stock'
    END;
BEGIN
    IF v_kind IS NULL THEN
        RETURN;
    ELSIF v_kind = 'back_in_stock' THEN
        INSERT INTO messages (store_id, user_id, kind, moment, recipient, data, status, last_error)
        SELECT p_store, u.id, v_kind, p_event::text, u.email, jsonb_build_object('product', p_data -> 'product'),
               CASE WHEN b.reply IS NULL THEN 'pending' ELSE 'suppressed' END,
               left('Not sent: this address bounced before (' || b.reply || ')', 1000)
        FROM users u LEFT JOIN bounced_addresses b ON b.address_key = lower(u.email)
        WHERE u.id = (p_data ->> 'customerId')::uuid AND u.wants_back_in_stock AND u.erased_at IS NULL
        ON CONFLICT (kind, moment, recipient) DO NOTHING;
        RETURN;
    END IF;
    INSERT INTO messages (store_id, order_id, user_id, kind, moment, recipient, data, status, last_error)
    SELECT p_store, p_order, u.id, v_kind, p_event::text, u.email,
           jsonb_strip_nulls(jsonb_build_object(
               'reason', p_data ->> 'reason', 'byStaff', p_data -> 'byStaff', 'repeated', p_data -> 'repeated',
               'substitution', p_data -> 'substitution',
               -- What is owed back as the order is cancelled (the message says so even when the
               -- refund is made before it is sent).
               'refundDue', CASE WHEN v_kind = 'order_cancelled' THEN o.refund_due_amount END)),
           CASE WHEN b.reply IS NULL THEN 'pending' ELSE 'suppressed' END,
           left('Not sent: this address bounced before (' || b.reply || ')', 1000)
    FROM orders o
    JOIN users u ON u.id = o.customer_id AND u.erased_at IS NULL
    LEFT JOIN bounced_addresses b ON b.address_key = lower(u.email)
    WHERE o.id = p_order
    ON CONFLICT (kind, moment, recipient) DO NOTHING;
END $$;
