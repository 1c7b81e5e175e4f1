-- psql script for checkout-bench's scaling phase: exactly :orders orders in the database, as if
-- that many checkouts had been placed and none yet packed: every order is pending, with one
-- line (one of the :products benchmark products, spread evenly), its first history entry and
-- its pickup token, made over the last :orders seconds by the benchmark's customers in turn
-- (the bench's own and the scaling phase's shoppers). The stock they hold is reserved, as
-- place_order would have. The outbox triggers (migration 013) write each order's event at
-- COMMIT, as a checkout's would.
--
-- TRUNCATE orders CASCADE empties every table that references orders, directly or not:
-- order_lines, order_events, pickup_tokens, payments, pick_list_orders, picks,
-- receipt_reissues, id_checks, refunds, events, webhook_deliveries. The per-store event
-- sequence (event_sequences) carries on from where it was.
SET client_min_messages = warning;
BEGIN;
TRUNCATE orders CASCADE;
DELETE FROM cart_items;
UPDATE stock SET reserved = 0 WHERE reserved <> 0;
CREATE TEMP TABLE seed ON COMMIT DROP AS
SELECT g, gen_random_uuid() AS id, c.ids[1 + g % cardinality(c.ids)] AS customer_id,
       p.id AS product_id, p.name, p.price_amount, now() - (:orders - g) * interval '1 second' AS at
FROM generate_series(1, :orders) g
CROSS JOIN (SELECT array_agg(u.id ORDER BY u.id) AS ids FROM users u
            WHERE u.role = 'customer' AND u.id::text LIKE 'c0000000-0000-4000-8000-%') c
JOIN products p ON p.id = bench.product(1 + (g * 7919) % :products);
INSERT INTO orders (id, store_id, customer_id, payment_method, total_amount, currency, idempotency_key, request_hash,
                    created_at)
SELECT id, bench.store(), customer_id, 'pay_at_collection', price_amount, 'JMD', 'seed-' || g,
       sha256(convert_to('checkout v1' || chr(10) || 'paymentMethod=pay_at_collection', 'UTF8')), at
FROM seed ORDER BY g;
INSERT INTO order_lines (store_id, order_id, product_id, name, unit_price, quantity)
SELECT bench.store(), id, product_id, name, price_amount, 1 FROM seed ORDER BY g;
INSERT INTO order_events (store_id, order_id, from_status, to_status, actor_id, at)
SELECT bench.store(), id, NULL, 'pending', customer_id, at FROM seed ORDER BY g;
INSERT INTO pickup_tokens (store_id, order_id, key_id, text, issued_at, expires_at)
SELECT bench.store(), id, 1, 'FC1:' || left(upper(repeat(md5(id::text), 5)), 137), at, now() + interval '7 days'
FROM seed ORDER BY g;
UPDATE stock s SET reserved = h.n
FROM (SELECT product_id, count(*) AS n FROM seed GROUP BY product_id) h
WHERE s.store_id = bench.store() AND s.product_id = h.product_id;
COMMIT;
VACUUM ANALYZE;
SELECT count(*) FROM orders;
