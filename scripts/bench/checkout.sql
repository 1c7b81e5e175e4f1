-- pgbench script for scripts/checkout-bench: the SQL of one checkout, as
-- Sources/Fulfilment/Orders/Checkout.swift runs it (run with -M extended, so every :variable is a
-- bound parameter, as PostgresNIO sends them). Ids come from the bench schema the setup creates:
-- bench.customer(n), bench.product(n), bench.store(); pgbench client k checks out as customer k + 1
-- (its own cart, as each HTTP client is its own customer).
--
-- The cart refill stands in for PUT /v1/cart/items/{productId} (one upsert instead of that
-- request's transaction); everything from BEGIN to COMMIT is the checkout transaction, statement
-- for statement. Only the Ed25519 signature (Swift, ~10 us) is replaced by a made-up token text.
\set c :client_id + 1
\set p random(1, :products)
\set k random(1, 9000000000000000000)
INSERT INTO cart_items (customer_id, product_id, quantity) VALUES (bench.customer(:c), bench.product(:p), 1)
ON CONFLICT (customer_id, product_id) DO UPDATE SET quantity = EXCLUDED.quantity;
BEGIN;
-- lock the cart
SELECT c.store_id, s.token_number, s.currency::text, extract(epoch FROM now() + s.collection_window)::int8, u.name
FROM carts c JOIN stores s ON s.id = c.store_id JOIN users u ON u.id = c.customer_id
WHERE c.customer_id = bench.customer(:c)
FOR UPDATE OF c;
-- an order with this idempotency key made while we waited?
SELECT 1 FROM orders WHERE customer_id = bench.customer(:c) AND idempotency_key = 'pgbench-' || :k::text;
-- the lines (one, as in the HTTP load), captured for the order
SELECT i.product_id AS line_product, p.name AS line_name, p.price_amount AS line_price, i.quantity AS line_quantity,
       p.discontinued AS line_discontinued
FROM cart_items i JOIN products p ON p.id = i.product_id
WHERE i.customer_id = bench.customer(:c)
ORDER BY i.product_id \gset
-- lock the stock rows in product-id order, then the guarded reservation
SELECT product_id, on_hand - reserved FROM stock
WHERE store_id = bench.store() AND product_id = ANY(ARRAY[:line_product::uuid])
ORDER BY product_id
FOR UPDATE;
UPDATE stock SET reserved = stock.reserved + u.quantity, updated_at = now()
FROM unnest(ARRAY[:line_product::uuid], ARRAY[:line_quantity::int4]) AS u(product_id, quantity)
WHERE stock.store_id = bench.store() AND stock.product_id = u.product_id
  AND stock.on_hand - stock.reserved >= u.quantity
RETURNING 1;
-- the order, its line, its first history entry, its pickup token; empty the cart
WITH o AS (
    INSERT INTO orders (id, store_id, customer_id, payment_method, total_amount, currency, idempotency_key, request_hash)
    VALUES (gen_random_uuid(), bench.store(), bench.customer(:c), 'pay_at_collection', :line_price::int8 * :line_quantity::int4, 'JMD',
            'pgbench-' || :k::text, sha256(convert_to('checkout v1' || chr(10) || 'paymentMethod=pay_at_collection', 'UTF8')))
    RETURNING id, number, created_at
), l AS (
    INSERT INTO order_lines (store_id, order_id, product_id, name, unit_price, quantity)
    SELECT bench.store(), o.id, u.product_id, u.name, u.price, u.quantity
    FROM o, unnest(ARRAY[:line_product::uuid], ARRAY[:line_name::text], ARRAY[:line_price::int8],
                   ARRAY[:line_quantity::int4]) AS u(product_id, name, price, quantity)
), e AS (
    INSERT INTO order_events (store_id, order_id, from_status, to_status, actor_id)
    SELECT bench.store(), o.id, NULL, 'pending', bench.customer(:c) FROM o
), t AS (
    INSERT INTO pickup_tokens (store_id, order_id, key_id, text, expires_at)
    SELECT bench.store(), o.id, 1, 'FC1:' || left(upper(repeat(md5(o.id::text), 5)), 137), now() + interval '7 days' FROM o
), d AS (
    DELETE FROM cart_items WHERE customer_id = bench.customer(:c)
)
SELECT number, created_at FROM o;
COMMIT;
