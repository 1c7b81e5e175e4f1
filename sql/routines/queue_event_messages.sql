-- The mail an event means (emit_event calls it, so in the transaction of the change): the
-- customer is told their order was placed, is ready (again, when staff resend it), has a
-- substitution to decide, or was cancelled; and, only with their consent (wants_back_in_stock),
-- that a favourite is back. Other events send no mail.
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
    v_customer uuid;
BEGIN
    IF v_kind IS NULL THEN
        RETURN;
    END IF;
    IF v_kind = 'back_in_stock' THEN
        SELECT u.id INTO v_customer FROM users u
        WHERE u.id = (p_data ->> 'customerId')::uuid AND u.wants_back_in_stock;
        IF v_customer IS NOT NULL THEN
            PERFORM queue_message(p_store, NULL, v_customer, v_kind, p_event::text,
                                  jsonb_build_object('product', p_data -> 'product'));
        END IF;
        RETURN;
    END IF;
    SELECT o.customer_id INTO v_customer FROM orders o WHERE o.id = p_order;
    PERFORM queue_message(p_store, p_order, v_customer, v_kind, p_event::text,
        jsonb_strip_nulls(jsonb_build_object(
            'reason', p_data ->> 'reason', 'byStaff', p_data -> 'byStaff', 'repeated', p_data -> 'repeated',
            'substitution', p_data -> 'substitution',
            -- What is owed back as the order is cancelled (the message says so even when the
            -- refund is made before it is sent).
            'refundDue', CASE WHEN v_kind = 'order_cancelled'
                              THEN (SELECT o.refund_due_amount FROM orders o WHERE o.id = p_order) END)));
END $$;
