-- pgbench script for scripts/checkout-bench: the ceiling. The least a checkout of this shape
-- could cost PostgreSQL: one statement that reserves the stock (a guarded update), inserts the
-- order, its line, its first history entry and its pickup token, and empties the cart, with
-- nothing read first and nothing checked that the guard does not (no bearer token resolved
-- either). The service's checkout is measured against it. Same cart refill and ids as
-- checkout.sql; -D products=1 puts every client on product 1 (the hot-product phase).
\set c :client_id + 1
\set p random(1, :products)
\set k random(1, 9000000000000000000)
INSERT INTO cart_items (customer_id, product_id, quantity) VALUES (bench.customer(:c), bench.product(:p), 1)
ON CONFLICT (customer_id, product_id) DO UPDATE SET quantity = EXCLUDED.quantity;
WITH i AS (
    SELECT i.product_id, p.name, p.price_amount, i.quantity
    FROM cart_items i JOIN products p ON p.id = i.product_id
    WHERE i.customer_id = bench.customer(:c)
), r AS (
    UPDATE stock SET reserved = stock.reserved + i.quantity, updated_at = now()
    FROM i
    WHERE stock.store_id = bench.store() AND stock.product_id = i.product_id AND stock.on_hand - stock.reserved >= i.quantity
    RETURNING stock.product_id
), o AS (
    INSERT INTO orders (id, store_id, customer_id, payment_method, total_amount, currency, idempotency_key, request_hash)
    SELECT gen_random_uuid(), bench.store(), bench.customer(:c), 'pay_at_collection', sum(i.price_amount * i.quantity), 'JMD',
           'pgbench-' || :k::text, sha256(convert_to('checkout v1' || chr(10) || 'paymentMethod=pay_at_collection', 'UTF8'))
    FROM i
    RETURNING id, number, created_at
), l AS (
    INSERT INTO order_lines (store_id, order_id, product_id, name, unit_price, quantity)
    SELECT bench.store(), o.id, i.product_id, i.name, i.price_amount, i.quantity FROM o, i
), e AS (
    INSERT INTO order_events (store_id, order_id, from_status, to_status, actor_id)
    SELECT bench.store(), o.id, NULL, 'pending', bench.customer(:c) FROM o
), t AS (
    INSERT INTO pickup_tokens (store_id, order_id, key_id, text, expires_at)
    SELECT bench.store(), o.id, 1, 'FC1:' || left(upper(repeat(md5(o.id::text), 5)), 137), now() + interval '7 days' FROM o
), d AS (
    DELETE FROM cart_items WHERE customer_id = bench.customer(:c)
)
SELECT number, created_at, (SELECT count(*) FROM r) AS reserved FROM o;
