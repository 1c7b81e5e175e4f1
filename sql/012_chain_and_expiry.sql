-- 012_chain_and_expiry: the chain's admins (they keep stores, aisles and the shared catalogue),
-- the end of an order's life (the expiry sweep of uncollected orders), and refunds paid back
-- (issue 13).

-- An admin belongs to no store, like a customer; staff and managers to exactly one.
ALTER TABLE users
    DROP CONSTRAINT users_role_check,
    ADD CONSTRAINT users_role_check CHECK (role IN ('customer', 'staff', 'manager', 'admin')),
    DROP CONSTRAINT users_store_matches_role,
    ADD CONSTRAINT users_store_matches_role CHECK ((role IN ('customer', 'admin')) = (store_id IS NULL));

-- Money paid back on an order owing a refund: recorded by a manager (who, when, a note) or by
-- the payment provider's `refund.succeeded` event (its id). What an order still owes is what
-- was paid, less what the customer keeps, less every refund here.
CREATE TABLE refunds (
    id                 uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    store_id           uuid NOT NULL,
    order_id           uuid NOT NULL,
    method             text NOT NULL CHECK (method IN ('desk', 'provider')),
    amount             bigint NOT NULL CHECK (amount > 0),
    currency           char(3) NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    recorded_by        uuid REFERENCES users (id),
    provider_event_id  text UNIQUE,
    note               text CHECK (length(note) <= 500),
    created_at         timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (store_id, order_id) REFERENCES orders (store_id, id),
    CHECK ((method = 'provider') = (provider_event_id IS NOT NULL)),
    CHECK ((method = 'desk') = (recorded_by IS NOT NULL))
);

CREATE INDEX refunds_order ON refunds (order_id);

-- `refunded`: everything owed back has been paid back. Like `paid` it counts as settled.
ALTER TABLE orders
    DROP CONSTRAINT orders_payment_status_check,
    ADD CONSTRAINT orders_payment_status_check CHECK (payment_status IN ('unpaid', 'paid', 'refund_due', 'refunded'));

-- The expiry sweep looks for open orders whose unused token has expired, oldest first.
CREATE INDEX pickup_tokens_unused_expiry ON pickup_tokens (expires_at) WHERE used_at IS NULL;
