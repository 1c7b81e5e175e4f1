-- 066_collector_passes: someone else collects (issue 48). A customer names a person and gets a
-- collector pass for them: a pickup token of its own (format version 2, QRReceipt's
-- PickupToken), naming the order and the pass, signed with the same keys, with its own expiry.
-- The desk accepts it as it accepts the receipt, once, while it is neither revoked nor expired;
-- the hand-over records which pass collected. The receipt and its passes are one order: whichever
-- is scanned first collects it, and the rest then answer `already_collected`.
CREATE TABLE collector_passes (
    id          uuid PRIMARY KEY,
    store_id    uuid NOT NULL,
    order_id    uuid NOT NULL,
    -- Who will collect, as the customer wrote it (1-80 code points); personal data of someone
    -- who is not a user: erased with the customer's account and with the order's retention.
    name        text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 80),
    key_id      integer NOT NULL CHECK (key_id BETWEEN 1 AND 65535),
    text        text NOT NULL UNIQUE CHECK (text LIKE 'FC1:%'),
    created_by  uuid NOT NULL REFERENCES users (id),
    created_at  timestamptz NOT NULL DEFAULT now(),
    expires_at  timestamptz NOT NULL,
    revoked_at  timestamptz,
    -- When it collected the order (at most one pass of an order ever has this).
    used_at     timestamptz,
    FOREIGN KEY (store_id, order_id) REFERENCES orders (store_id, id),
    CHECK (expires_at > created_at),
    CHECK (revoked_at IS NULL OR used_at IS NULL)
);
CREATE INDEX collector_passes_order ON collector_passes (order_id, created_at, id);

-- The pass that collected the order; null when the customer's own receipt did (or not collected).
ALTER TABLE orders ADD COLUMN collector_pass_id uuid REFERENCES collector_passes (id);
