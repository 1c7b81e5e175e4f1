-- pgbench script for scripts/checkout-bench: the SQL of one collection scan, as
-- Sources/FulfilmentDomain/Collection/Collections.swift runs it (run with -M extended). Each run takes the
-- next order from bench.queue (packaged, paid orders nobody has collected, with their tokens),
-- the way each scan at the desk is a different customer's token; that lookup stands in for
-- nothing the service does. The Ed25519 verification (Swift) is not part of it. pgbench client k
-- scans with staff session k + 1 (bench.staff_session_hash(n): the SHA-256 of that session's
-- token, from its sign-in through the API), as each HTTP client has its own staff session. Then
-- the scan's two statements: who is calling (session_caller, migration 017, default lifetimes)
-- with the order the token names (order_view), then collect_order_viewed (migration 017), which
-- decides and hands over under its locks (collect_order, migration 015) and reads the order back
-- for the answer.
\set c :client_id + 1
SELECT order_id AS oid, token AS tok FROM bench.queue WHERE n = (SELECT nextval('bench.queue_next')) \gset
SELECT c.user_id, c.role, c.store_id, c.session_id, c.expired, v.*
FROM session_caller(bench.staff_session_hash(:c), 43200, 2592000, 60) c LEFT JOIN order_view(:oid::uuid) v ON true;
SELECT w.collected, (w.o).*
FROM collect_order_viewed(:oid::uuid, bench.store(), bench.staff(), :tok, NULL) w;
