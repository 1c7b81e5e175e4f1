-- 012_chain_and_expiry: the chain's admins (they keep stores, aisles and the shared catalogue),
-- the end of an order's life (the expiry sweep of uncollected orders), and refunds paid back
-- (issue 13).

-- An admin belongs to no store, like a customer; staff and managers to exactly one.
ALTER TABLE users
    DROP CONSTRAINT users_role_check,
    ADD CONSTRAINT users_role_check CHECK (role IN ('customer', 'staff', 'manager', 'admin')),
    DROP CONSTRAINT users_store_matches_role,
    ADD CONSTRAINT users_store_matches_role CHECK ((role IN ('customer', 'admin')) = (store_id IS NULL));

-- The expiry sweep looks for open orders whose unused token has expired, oldest first.
CREATE INDEX pickup_tokens_unused_expiry ON pickup_tokens (expires_at) WHERE used_at IS NULL;
