-- An order as the API's `OrderSummary` (the board's and the customer's list item), in every
-- order event's payload. PL/pgSQL, so PostgreSQL keeps its plan (a LANGUAGE sql function that is
-- not inlined is planned again at every call: 0.76 ms of every order event, measured in issue 15).
CREATE OR REPLACE FUNCTION order_summary_json(p_order uuid) RETURNS jsonb LANGUAGE plpgsql STABLE AS $$
BEGIN
    RETURN (
        SELECT jsonb_strip_nulls(jsonb_build_object(
            'id', o.id,
            'number', o.number,
            'storeId', o.store_id,
            'customerName', u.name,
            'status', o.status,
            'progress', CASE o.status WHEN 'pending' THEN 0.25 WHEN 'packaged' THEN 0.5 WHEN 'delivering' THEN 0.75
                                      WHEN 'completed' THEN 1 ELSE 0 END,
            'paymentMethod', o.payment_method,
            'paymentStatus', o.payment_status,
            'total', jsonb_build_object('amount', o.total_amount, 'currency', o.currency),
            -- A coupon's discount, only when there is one (issue 26): total is already after it.
            'discount', CASE WHEN o.discount_amount > 0 THEN jsonb_build_object('amount', o.discount_amount, 'currency', o.currency) END,
            'itemCount', (SELECT coalesce(sum(l.quantity), 0) FROM order_lines l WHERE l.order_id = o.id),
            'placedAt', api_time(o.created_at),
            'pickupSlot', CASE WHEN o.pickup_slot_start IS NOT NULL THEN
                jsonb_build_object('start', api_time(o.pickup_slot_start), 'end', api_time(o.pickup_slot_end)) END,
            -- "I'm here" (issue 27): when, and where, once the customer has said so.
            'arrival', CASE WHEN o.arrived_at IS NOT NULL THEN jsonb_build_object(
                'at', api_time(o.arrived_at), 'bay', o.arrival_bay, 'vehicle', o.arrival_vehicle, 'note', o.arrival_note) END,
            -- What needs someone (issue 46), only when something does.
            'openSubstitutions', nullif((SELECT count(*) FROM order_lines l WHERE l.order_id = o.id AND l.substitution_status = 'proposed'), 0),
            'shortLines', nullif((SELECT count(*) FROM order_lines l
                                   WHERE l.order_id = o.id AND l.picked_short AND coalesce(l.picked_quantity, 0) < l.quantity), 0)))
        FROM orders o JOIN users u ON u.id = o.customer_id
        WHERE o.id = p_order);
END
$$;
