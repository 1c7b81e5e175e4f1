-- 006_hardening: what a store's real use broke in the first release (issue 10): a ceiling on
-- prices, money owed back on paid orders, the stock ledger, and audited receipt re-issues.

-- A price is at most 100,000,000.00 (in minor units), so no line (99 units) or order total can
-- come near 64 bits. NOT VALID: a price already above it stays readable (the code's sums never
-- trap), but no row can be written with one again.
ALTER TABLE products ADD CONSTRAINT products_price_ceiling CHECK (price_amount <= 10000000000) NOT VALID;

-- A paid order that was later packaged short or cancelled owes the customer the difference:
-- payment_status 'refund_due' with the amount. It counts as paid for collection.
ALTER TABLE orders ADD COLUMN refund_due_amount bigint NOT NULL DEFAULT 0 CHECK (refund_due_amount >= 0);
ALTER TABLE orders
    DROP CONSTRAINT orders_payment_status_check,
    ADD CONSTRAINT orders_payment_status_check CHECK (payment_status IN ('unpaid', 'paid', 'refund_due')),
    ADD CONSTRAINT orders_refund_due_has_amount CHECK ((payment_status = 'refund_due') = (refund_due_amount > 0)),
    DROP CONSTRAINT orders_paid_has_time,
    ADD CONSTRAINT orders_paid_has_time CHECK ((payment_status <> 'unpaid') = (paid_at IS NOT NULL)),
    DROP CONSTRAINT orders_completed_is_collected,
    ADD CONSTRAINT orders_completed_is_collected CHECK (
        (status = 'completed') = (collected_at IS NOT NULL)
        AND (collected_at IS NULL) = (collected_by IS NULL)
        AND (status <> 'completed' OR (completed_at IS NOT NULL AND payment_status <> 'unpaid')));

-- The stock ledger: every change a person makes to on-hand (a delivery received, breakage, a
-- count, an import), with who, why and the figure it left. Sales and reservations are on the
-- orders themselves.
CREATE TABLE stock_movements (
    id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    store_id       uuid NOT NULL,
    product_id     uuid NOT NULL,
    delta          integer NOT NULL,
    reason         text NOT NULL
                   CHECK (reason IN ('received', 'damaged', 'expired', 'returned', 'count', 'correction', 'import')),
    note           text CHECK (length(note) <= 500),
    on_hand_after  integer NOT NULL CHECK (on_hand_after >= 0),
    actor_id       uuid REFERENCES users (id),
    at             timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (store_id, product_id) REFERENCES stock (store_id, product_id)
);

CREATE INDEX stock_movements_product ON stock_movements (store_id, product_id, id DESC);

-- A pickup receipt issued again at the desk (the customer lost it): the old token stops
-- working, and who did it, when and why is kept.
CREATE TABLE receipt_reissues (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    store_id     uuid NOT NULL,
    order_id     uuid NOT NULL,
    reissued_by  uuid NOT NULL REFERENCES users (id),
    reason       text NOT NULL CHECK (length(reason) BETWEEN 1 AND 500),
    at           timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (store_id, order_id) REFERENCES orders (store_id, id)
);

CREATE INDEX receipt_reissues_order ON receipt_reissues (order_id, id);
