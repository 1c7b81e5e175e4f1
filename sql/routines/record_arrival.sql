-- "I'm here" (issue 27): the order's customer says they are at the store, and where (a bay, the
-- vehicle, a note). Only for their order that is packaged or at the collection point, while its
-- pickup code is good (inside the collection window); a second call changes where, not when
-- they first arrived, which the wait is measured from. Each call is in the order's history, and
-- its event (order.customer_arrived) tells the desk and the board at commit.
-- Refusals (SQLSTATE FC000, nothing changes): order_not_found (not the customer's),
-- not_ready {status, expectedAt}: not packed yet (expectedAt the slot's start when it has one),
-- or already collected, cancelled, or past its window.
CREATE OR REPLACE FUNCTION record_arrival(
    p_order uuid, p_customer uuid, p_bay text, p_vehicle text, p_note text, OUT p_first boolean
) LANGUAGE plpgsql AS $$
DECLARE
    v_order orders;
    v_expires timestamptz;
BEGIN
    SELECT * INTO v_order FROM orders o WHERE o.id = p_order AND o.customer_id = p_customer FOR NO KEY UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION USING ERRCODE = 'FC000', MESSAGE = 'order_not_found';
    END IF;
    SELECT t.expires_at INTO v_expires FROM pickup_tokens t WHERE t.order_id = p_order;
    IF v_order.status NOT IN ('packaged', 'delivering') OR v_expires <= now() THEN
        RAISE EXCEPTION USING ERRCODE = 'FC000', MESSAGE = 'not_ready',
            DETAIL = json_build_object('status', v_order.status,
                'expectedAt', CASE WHEN v_order.status = 'pending' THEN api_time(v_order.pickup_slot_start) END,
                'expired', v_expires <= now())::text;
    END IF;
    p_first := v_order.arrived_at IS NULL;
    UPDATE orders SET arrived_at = coalesce(arrived_at, now()), arrival_updated_at = now(),
                      arrival_bay = p_bay, arrival_vehicle = p_vehicle, arrival_note = p_note
     WHERE id = p_order;
    INSERT INTO order_events (store_id, order_id, from_status, to_status, actor_id, reason, kind, detail)
    VALUES (v_order.store_id, p_order, v_order.status, v_order.status, p_customer,
            CASE WHEN p_bay IS NOT NULL THEN 'arrived, bay ' || p_bay ELSE 'arrived' END, 'customer_arrived',
            jsonb_build_object('repeated', NOT p_first));
END
$$;
