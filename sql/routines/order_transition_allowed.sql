-- The order transition rule on the database's side (issue 43): whether an order in status
-- `p_from` may move to `p_to`. It is `OrderStatus.allowedTargets` (Sources/FulfilmentDomain/
-- Orders/OrderStatus.swift) written in SQL, for what decides under locks: collect_order hands an
-- order over only if it may move to 'completed', and the expiry sweep (OrderExpiryQueries)
-- claims only orders that may move to 'cancelled'. No other routine lists the statuses a move
-- may start from; they ask this. TransitionRuleAgreementTests compares it with the Swift rule
-- for every pair of statuses, so neither side can change alone.
--
--     pending ──▶ packaged ──▶ delivering ──▶ completed   (completed only by a collection scan)
--        │            │  └──────────────────────▲
--        └────────────┴──────────┴──▶ cancelled
--
-- SQL, IMMUTABLE, not STRICT: the planner inlines it into the statement that calls it. An
-- unknown or NULL status may move nowhere (false, never NULL).
CREATE OR REPLACE FUNCTION order_transition_allowed(p_from text, p_to text)
RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE p_from
        WHEN 'pending' THEN p_to IN ('packaged', 'cancelled')
        WHEN 'packaged' THEN p_to IN ('delivering', 'completed', 'cancelled')
        WHEN 'delivering' THEN p_to IN ('completed', 'cancelled')
        ELSE false
    END IS TRUE
$$;
