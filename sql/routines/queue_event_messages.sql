-- The mail an event means (emit_event calls it, so in the transaction of the change, at its
-- commit): the customer is told their order was placed, is ready (again, when staff resend it),
-- has a substitution to decide, is late (issue 47: `order.late` from the late-risk sweep, with
-- its new estimated time; at risk is the store's to recover, and tells the customer nothing), or
-- was cancelled; and, only with their consent
-- (wants_back_in_stock), that a favourite is back. Other events send no mail.
--
-- Each message is queue_message's one statement (the one place for the address, an erased account
-- and a bounce): a checkout's receipt is written with its commit and costs no round trip (issue
-- 44). No notification of its own: emit_event's wakes every instance's sender (EventBus, `written`).
CREATE OR REPLACE FUNCTION queue_event_messages(p_event uuid, p_store uuid, p_type text, p_order uuid, p_data jsonb)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    v_kind text := CASE p_type
        WHEN 'order.placed' THEN 'order_placed'
        WHEN 'order.ready_for_pickup' THEN 'ready_for_pickup'
        WHEN 'order.substitution_proposed' THEN 'substitution_proposed'
        WHEN 'order.cancelled' THEN 'order_cancelled'
        WHEN 'order.late' THEN 'order_late'
        WHEN 'favourite.back_in_stock' THEN 'back_in_stock'
    END;
BEGIN
    IF v_kind IS NULL THEN
        RETURN;
    ELSIF v_kind = 'back_in_stock' THEN
        PERFORM queue_message(p_store, NULL, u.id, v_kind, p_event::text, jsonb_build_object('product', p_data -> 'product'),
                              p_notify => false)
        FROM users u WHERE u.id = (p_data ->> 'customerId')::uuid AND u.wants_back_in_stock;
        RETURN;
    END IF;
    PERFORM queue_message(p_store, p_order, o.customer_id, v_kind, p_event::text,
        jsonb_strip_nulls(jsonb_build_object(
            'reason', p_data ->> 'reason', 'byStaff', p_data -> 'byStaff', 'repeated', p_data -> 'repeated',
            'substitution', p_data -> 'substitution',
            'readyBy', p_data -> 'readyBy', 'expectedReadyAt', p_data -> 'expectedReadyAt',
            -- What is owed back as the order is cancelled (the message says so even when the
            -- refund is made before it is sent).
            'refundDue', CASE WHEN v_kind = 'order_cancelled' THEN o.refund_due_amount END)),
        p_notify => false)
    FROM orders o WHERE o.id = p_order;
END $$;
