-- 040_privacy (issue 32): erasing an account. The account's row stays as a tombstone, so the
-- orders, payments and refunds the shop's books keep still name a customer, but nothing on it
-- is personal any more (erase_account); who erased whom, and when, is recorded here.
ALTER TABLE users ADD COLUMN erased_at timestamptz;

CREATE TABLE account_erasures (
    id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id         uuid NOT NULL REFERENCES users (id),
    role            text NOT NULL,
    -- Who erased it: the account itself, a store's manager (staff who left), the chain's admin
    -- (a customer's request).
    erased_by       uuid NOT NULL REFERENCES users (id),
    reason          text NOT NULL CHECK (reason IN ('own_request', 'admin_request', 'staff_left')),
    content_deleted boolean NOT NULL,
    erased_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX account_erasures_user ON account_erasures (user_id);
