-- pgbench script for scripts/checkout-bench: the SQL of one checkout, as
-- Sources/FulfilmentDomain/Orders/CheckoutQueries.swift runs it (run with -M extended, so every
-- :variable is a bound parameter, as PostgresNIO sends them). Ids come from the bench schema the
-- setup creates: bench.customer(n), bench.session_hash(n) (the SHA-256 of customer n's session
-- token, from its sign-in through the API), bench.product(n), bench.store(); pgbench client k
-- checks out as customer k + 1 with that customer's session (its own cart, as each HTTP client
-- is its own customer). -D products=1 puts every client on product 1 (the hot-product phase).
--
-- The cart line is PUT /v1/cart/items/{productId}'s one statement (the line written and the cart
-- read back for the answer, migration 020). Then checkout's two statements,
-- each its own transaction: the read, which resolves the bearer token as well (and records the
-- session's use at most once a minute) and holds no lock afterwards, and place_order (migration
-- 014), which takes and releases every lock itself. Only the Ed25519 signature (Swift, ~10 us)
-- is replaced by a made-up token text.
\set c :client_id + 1
\set p random(1, :products)
\set k random(1, 9000000000000000000)
-- 0. the cart line, as PUT /v1/cart/items/{productId} sends it (CartQueries.setQuantity): the
--    caller resolved, the line written for them only if admitted, and the cart read back
--    (set_cart_line_viewed, migration 020)
SELECT c.user_id, c.role, c.store_id, c.session_id, c.expired, x.*
FROM session_caller(bench.session_hash(:c), 43200, 2592000, 60) c
LEFT JOIN LATERAL set_cart_line_viewed(CASE WHEN NOT c.expired AND c.role = ANY ('{customer}'::text[]) THEN c.user_id END,
                                       bench.product(:p), 1) x ON true;
-- 1. who is calling and what the service needs to decide and sign (CheckoutQueries.context): the
--    bearer token is resolved here (Caller.swift: session_caller, migration 017, with the default
--    lifetimes: 12 h idle, 30 days in all, last use written at most every 60 s), then
--    checkout_context (migration 018): the customer's name, the cart's store and calendar, and
--    any order this key already made.
SELECT c.user_id, c.role, c.store_id, c.session_id, c.expired, x.*
FROM session_caller(bench.session_hash(:c), 43200, 2592000, 60) c
LEFT JOIN LATERAL checkout_context(c.user_id, 'pgbench-' || :k::text) x ON true;
-- 2. every write, in one statement
SELECT number, created_at, total, product_ids, names, unit_prices, quantities, minimum_ages, discount, discounts
FROM place_order(bench.customer(:c), bench.store(), gen_random_uuid(), 'pay_at_collection', 'pgbench-' || :k::text,
                 sha256(convert_to('checkout v1' || chr(10) || 'paymentMethod=pay_at_collection', 'UTF8')),
                 NULL, NULL, NULL, 1, 'FC1:' || left(upper(repeat(md5(:k::text), 5)), 137), now() + interval '7 days');
