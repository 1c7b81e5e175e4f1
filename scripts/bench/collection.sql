-- pgbench script for scripts/checkout-bench: the SQL of one collection scan, as
-- Sources/Fulfilment/Orders/Collections.swift runs it (run with -M extended). Each transaction
-- takes the next order from bench.queue (packaged, paid orders nobody has collected), the way
-- each scan at the desk is a different customer's token. That lookup stands in for the service's
-- one statement outside the transaction (the staff member's store number); the Ed25519
-- verification (Swift) is not part of it. Everything from BEGIN to COMMIT is the collection
-- transaction, statement for statement, including reading the order back twice (before the
-- checks and for the answer).
SELECT order_id AS oid, from_status AS st FROM bench.queue WHERE n = (SELECT nextval('bench.queue_next')) \gset
BEGIN;
SELECT store_id FROM orders WHERE id = :oid;
-- stock rows before the order row
SELECT 1 FROM stock
WHERE store_id = bench.store()
  AND product_id IN (SELECT product_id FROM order_lines WHERE order_id = :oid)
ORDER BY product_id
FOR UPDATE;
SELECT 1 FROM orders WHERE id = :oid FOR UPDATE;
-- OrderQueries.order: the order with its token, its lines, its history
SELECT o.id, o.number, o.store_id, o.customer_id, u.name, o.status, o.payment_method, o.payment_status,
       o.total_amount, o.currency::text, o.created_at, o.packaged_at, o.delivering_at, o.completed_at,
       o.cancelled_at, o.paid_at, o.collected_at, o.collected_by, t.text, t.expires_at, t.used_at
FROM orders o
JOIN users u ON u.id = o.customer_id
LEFT JOIN pickup_tokens t ON t.order_id = o.id
WHERE o.id = :oid;
SELECT product_id, name, unit_price, quantity, picked_quantity FROM order_lines
WHERE order_id = :oid ORDER BY name, product_id;
SELECT e.from_status, e.to_status, e.actor_id, u.name, e.reason, e.at
FROM order_events e LEFT JOIN users u ON u.id = e.actor_id
WHERE e.order_id = :oid ORDER BY e.id;
-- complete it, mark the token used, turn reserved stock into sold stock, record the event
WITH o AS (
    UPDATE orders SET status = 'completed', completed_at = now(), collected_at = now(), collected_by = bench.staff()
    WHERE id = :oid AND status = :st::text
    RETURNING id
), t AS (
    UPDATE pickup_tokens SET used_at = now(), used_by = bench.staff()
    WHERE order_id = :oid AND used_at IS NULL
), s AS (
    UPDATE stock SET on_hand = stock.on_hand - l.quantity, reserved = stock.reserved - l.quantity, updated_at = now()
    FROM order_lines l
    WHERE l.order_id = :oid AND stock.store_id = bench.store() AND stock.product_id = l.product_id
)
INSERT INTO order_events (store_id, order_id, from_status, to_status, actor_id, reason)
SELECT bench.store(), id, :st::text, 'completed', bench.staff(), 'collected'
FROM o;
-- read back for the answer
SELECT o.id, o.number, o.store_id, o.customer_id, u.name, o.status, o.payment_method, o.payment_status,
       o.total_amount, o.currency::text, o.created_at, o.packaged_at, o.delivering_at, o.completed_at,
       o.cancelled_at, o.paid_at, o.collected_at, o.collected_by, t.text, t.expires_at, t.used_at
FROM orders o
JOIN users u ON u.id = o.customer_id
LEFT JOIN pickup_tokens t ON t.order_id = o.id
WHERE o.id = :oid;
SELECT product_id, name, unit_price, quantity, picked_quantity FROM order_lines
WHERE order_id = :oid ORDER BY name, product_id;
SELECT e.from_status, e.to_status, e.actor_id, u.name, e.reason, e.at
FROM order_events e LEFT JOIN users u ON u.id = e.actor_id
WHERE e.order_id = :oid ORDER BY e.id;
COMMIT;
