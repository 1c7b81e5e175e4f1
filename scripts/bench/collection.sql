-- pgbench script for scripts/checkout-bench: the SQL of one collection scan, as
-- Sources/Fulfilment/Orders/Collections.swift runs it (run with -M extended). Each run takes the
-- next order from bench.queue (packaged, paid orders nobody has collected, with their tokens),
-- the way each scan at the desk is a different customer's token; that lookup stands in for
-- nothing the service does. The Ed25519 verification (Swift) is not part of it. Then the scan's
-- two statements: collect_order (migration 015), which decides and hands over under its locks,
-- and the order read back for the answer (OrderQueries.order).
SELECT order_id AS oid, token AS tok FROM bench.queue WHERE n = (SELECT nextval('bench.queue_next')) \gset
SELECT collect_order(:oid::uuid, bench.store(), bench.staff(), :tok, NULL);
SELECT o.id, o.number, o.store_id, o.customer_id, u.name, o.status, o.payment_method, o.payment_status,
       o.total_amount, o.currency::text, o.created_at, o.packaged_at, o.delivering_at, o.completed_at,
       o.cancelled_at, o.paid_at, o.collected_at, o.collected_by, t.text, t.expires_at, t.used_at,
       o.refund_due_amount, o.pickup_slot_start, o.pickup_slot_end, c.time_zone,
       (SELECT coalesce(json_agg(json_build_object(
                   'productId', l.product_id, 'name', l.name, 'unitPrice', l.unit_price, 'quantity', l.quantity,
                   'picked', l.picked_quantity, 'minimumAge', l.minimum_age, 'removed', l.removed_at IS NOT NULL)
               ORDER BY l.name, l.product_id), '[]')
        FROM order_lines l WHERE l.order_id = o.id)::text,
       (SELECT coalesce(json_agg(json_build_object(
                   'from', e.from_status, 'to', e.to_status, 'actorId', e.actor_id, 'actorName', a.name,
                   'reason', e.reason, 'at', ((extract(epoch FROM e.at) - 946684800) * 1000000)::int8)
               ORDER BY e.id), '[]')
        FROM order_events e LEFT JOIN users a ON a.id = e.actor_id WHERE e.order_id = o.id)::text,
       json_build_object(
           'required', (SELECT max(l.minimum_age) FROM order_lines l WHERE l.order_id = o.id AND l.removed_at IS NULL),
           'minimumAge', k.minimum_age, 'method', k.method, 'by', k.confirmed_by, 'byName', ku.name,
           'at', ((extract(epoch FROM k.confirmed_at) - 946684800) * 1000000)::int8)::text
FROM orders o
JOIN users u ON u.id = o.customer_id
LEFT JOIN pickup_tokens t ON t.order_id = o.id
LEFT JOIN store_calendars c ON c.store_id = o.store_id
LEFT JOIN id_checks k ON k.order_id = o.id
LEFT JOIN users ku ON ku.id = k.confirmed_by
WHERE o.id = :oid::uuid;
