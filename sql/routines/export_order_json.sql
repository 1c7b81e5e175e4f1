-- One order as a user's data export has it (issue 32): what it was, its lines (substitutions
-- included), its history (status changes, substitutions, arrival), payments, refunds, the
-- coupon redemption and the arrival as it stands. Each line says the tax class and rate it
-- kept, the order its tax per rate as its receipt does (issue 48, order_tax_json), and each
-- refund the lines it paid back (issue 46).
CREATE OR REPLACE FUNCTION export_order_json(p_order uuid) RETURNS json LANGUAGE sql STABLE AS $$
    SELECT json_build_object(
        'id', o.id, 'number', o.number, 'storeId', o.store_id, 'status', o.status, 'paymentMethod', o.payment_method,
        'paymentStatus', o.payment_status, 'total', json_build_object('amount', o.total_amount, 'currency', o.currency),
        'discount', json_build_object('amount', o.discount_amount, 'currency', o.currency), 'placedAt', api_time(o.created_at),
        'collectedAt', api_time(o.collected_at), 'cancelledAt', api_time(o.cancelled_at),
        'pickupSlot', CASE WHEN o.pickup_slot_start IS NOT NULL THEN
            json_build_object('start', api_time(o.pickup_slot_start), 'end', api_time(o.pickup_slot_end)) END,
        'arrival', CASE WHEN o.arrived_at IS NOT NULL THEN json_build_object(
            'at', api_time(o.arrived_at), 'bay', o.arrival_bay, 'vehicle', o.arrival_vehicle, 'note', o.arrival_note) END,
        'lines', coalesce((SELECT json_agg(json_build_object(
                'productId', l.product_id, 'name', l.name, 'unitPrice', l.unit_price, 'quantity', l.quantity,
                'discount', l.discount_amount, 'substitution', l.substitution, 'substitutedQuantity', l.substituted_quantity,
                'substituteFor', l.substitute_for, 'substitutionStatus', l.substitution_status, 'removedAt', api_time(l.removed_at),
                'taxClass', l.tax_class, 'taxRateBasisPoints', l.tax_rate_bp)
                ORDER BY l.product_id) FROM order_lines l WHERE l.order_id = o.id), '[]'),
        'history', coalesce((SELECT json_agg(json_build_object(
                'kind', e.kind, 'from', e.from_status, 'to', e.to_status, 'reason', e.reason, 'at', api_time(e.at)) ORDER BY e.at, e.id)
                FROM order_events e WHERE e.order_id = o.id), '[]'),
        'payments', coalesce((SELECT json_agg(json_build_object(
                'method', p.method, 'amount', p.amount, 'currency', p.currency, 'at', api_time(p.created_at)) ORDER BY p.created_at)
                FROM payments p WHERE p.order_id = o.id), '[]'),
        'refunds', coalesce((SELECT json_agg(json_build_object(
                'method', r.method, 'amount', r.amount, 'currency', r.currency, 'note', r.note, 'at', api_time(r.created_at),
                'lines', coalesce((SELECT json_agg(json_build_object('productId', rl.product_id, 'amount', rl.amount)
                                                   ORDER BY rl.product_id)
                                   FROM refund_lines rl WHERE rl.refund_id = r.id), '[]')) ORDER BY r.created_at)
                FROM refunds r WHERE r.order_id = o.id), '[]'),
        'tax', order_tax_json(o.id),
        'couponRedemption', (SELECT json_build_object('couponId', c.coupon_id, 'discount', c.discount_amount,
                                                      'redeemedAt', api_time(c.redeemed_at), 'releasedAt', api_time(c.released_at))
                               FROM coupon_redemptions c WHERE c.order_id = o.id))
    FROM orders o WHERE o.id = p_order
$$;
