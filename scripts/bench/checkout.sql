-- pgbench script for scripts/checkout-bench: the SQL of one checkout, as
-- Sources/Fulfilment/Orders/CheckoutQueries.swift runs it (run with -M extended, so every
-- :variable is a bound parameter, as PostgresNIO sends them). Ids come from the bench schema the
-- setup creates: bench.customer(n), bench.session_hash(n) (the SHA-256 of customer n's session
-- token, from its sign-in through the API), bench.product(n), bench.store(); pgbench client k
-- checks out as customer k + 1 with that customer's session (its own cart, as each HTTP client
-- is its own customer). -D products=1 puts every client on product 1 (the hot-product phase).
--
-- The cart refill stands in for PUT /v1/cart/items/{productId}. Then checkout's two statements,
-- each its own transaction: the read, which resolves the bearer token as well (and records the
-- session's use at most once a minute) and holds no lock afterwards, and place_order (migration
-- 014), which takes and releases every lock itself. Only the Ed25519 signature (Swift, ~10 us)
-- is replaced by a made-up token text.
\set c :client_id + 1
\set p random(1, :products)
\set k random(1, 9000000000000000000)
INSERT INTO cart_items (customer_id, product_id, quantity) VALUES (bench.customer(:c), bench.product(:p), 1)
ON CONFLICT (customer_id, product_id) DO UPDATE SET quantity = EXCLUDED.quantity;
-- 1. who is calling and what the service needs to decide and sign (CheckoutQueries.context): the
--    bearer token is resolved here (Caller.swift: session_caller, migration 017, with the default
--    lifetimes: 12 h idle, 30 days in all, last use written at most every 60 s), then the
--    customer's name, the cart's store and calendar, and any order this key already made.
SELECT c.user_id, c.role, c.store_id, c.session_id, c.expired, u.name, ct.store_id, s.token_number, s.currency::text,
       extract(epoch FROM now() + s.collection_window)::int8, e.id, e.request_hash,
       k.time_zone, k.slot_minutes, k.capacity, k.lead_minutes, k.horizon_days, k.grace_minutes,
       ARRAY(SELECT h.weekday FROM store_opening_hours h WHERE h.store_id = k.store_id ORDER BY h.weekday, h.opens_minute),
       ARRAY(SELECT h.opens_minute FROM store_opening_hours h WHERE h.store_id = k.store_id ORDER BY h.weekday, h.opens_minute),
       ARRAY(SELECT h.closes_minute FROM store_opening_hours h WHERE h.store_id = k.store_id ORDER BY h.weekday, h.opens_minute),
       ARRAY(SELECT (d.date - DATE '1970-01-01')::int4 FROM store_closures d WHERE d.store_id = k.store_id ORDER BY d.date),
       ARRAY(SELECT d.reason FROM store_closures d WHERE d.store_id = k.store_id ORDER BY d.date)
FROM session_caller(bench.session_hash(:c), 43200, 2592000, 60) c
LEFT JOIN users u ON u.id = c.user_id
LEFT JOIN carts ct ON ct.customer_id = u.id
LEFT JOIN stores s ON s.id = ct.store_id
LEFT JOIN store_calendars k ON k.store_id = ct.store_id
LEFT JOIN orders e ON e.customer_id = u.id AND e.idempotency_key = 'pgbench-' || :k::text;
-- 2. every write, in one statement
SELECT number, created_at, total, product_ids, names, unit_prices, quantities, minimum_ages
FROM place_order(bench.customer(:c), bench.store(), gen_random_uuid(), 'pay_at_collection', 'pgbench-' || :k::text,
                 sha256(convert_to('checkout v1' || chr(10) || 'paymentMethod=pay_at_collection', 'UTF8')),
                 NULL, NULL, NULL, 1, 'FC1:' || left(upper(repeat(md5(:k::text), 5)), 137), now() + interval '7 days');
