-- 031_coupons: coupons a store's manager (store-wide) or an admin (chain-wide, store_id NULL)
-- makes, the one a cart carries, and every redemption (issue 26).
--
-- Redeeming happens inside checkout's one statement (place_order): it locks the coupon row,
-- re-checks the limits under the lock and counts the redemption on that row, so N concurrent
-- checkouts for the last redemption make exactly one discounted order on any number of
-- instances. `redeemed` can never pass `redemption_limit` (the CHECK), and a customer's uses are
-- numbered 1...per_customer_limit with a unique index, so neither limit can be passed even by a
-- statement that forgot the lock. A cancelled or expired order gives its redemption back
-- (released_at), which frees both counts.
CREATE TABLE coupons (
    id                    uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    -- NULL: chain-wide (an admin's); otherwise the store whose manager made it.
    store_id              uuid REFERENCES stores (id) ON DELETE CASCADE,
    -- As typed when made; matched case-insensitively (lower(code)).
    code                  text NOT NULL CHECK (code ~ '^[A-Za-z0-9_-]{3,32}$'),
    description           text NOT NULL DEFAULT '' CHECK (length(description) <= 200),
    -- 'percent': percent_basis_points off the lines it applies to (1,000 is 10 %);
    -- 'amount': amount_off minor units off them, at most their sum.
    kind                  text NOT NULL CHECK (kind IN ('percent', 'amount')),
    percent_basis_points  integer CHECK (percent_basis_points BETWEEN 1 AND 10000),
    amount_off            bigint CHECK (amount_off BETWEEN 1 AND 10000000000),
    -- The currency of amount_off and minimum_spend; a coupon only applies at stores that sell in
    -- it. A store's coupon has its store's; a chain-wide percent coupon without either may have none.
    currency              char(3) CHECK (currency ~ '^[A-Z]{3}$'),
    minimum_spend         bigint CHECK (minimum_spend BETWEEN 1 AND 10000000000),
    valid_from            timestamptz,
    valid_until           timestamptz,
    redemption_limit      integer CHECK (redemption_limit BETWEEN 1 AND 1000000000),
    per_customer_limit    integer CHECK (per_customer_limit BETWEEN 1 AND 1000),
    -- What it is limited to: none of either means the whole cart.
    product_ids           uuid[] NOT NULL DEFAULT '{}' CHECK (cardinality(product_ids) <= 1000),
    categories            text[] NOT NULL DEFAULT '{}' CHECK (cardinality(categories) <= 100),
    -- Live redemptions (released ones are given back).
    redeemed              integer NOT NULL DEFAULT 0 CHECK (redeemed >= 0),
    created_at            timestamptz NOT NULL DEFAULT now(),
    created_by            uuid REFERENCES users (id) ON DELETE SET NULL,
    ended_at              timestamptz,
    ended_by              uuid REFERENCES users (id) ON DELETE SET NULL,
    CONSTRAINT coupons_one_kind CHECK (
        (kind = 'percent' AND percent_basis_points IS NOT NULL AND amount_off IS NULL)
        OR (kind = 'amount' AND amount_off IS NOT NULL AND percent_basis_points IS NULL)),
    CONSTRAINT coupons_money_has_currency CHECK ((amount_off IS NULL AND minimum_spend IS NULL) OR currency IS NOT NULL),
    CONSTRAINT coupons_valid_window CHECK (valid_until IS NULL OR valid_from IS NULL OR valid_until > valid_from),
    CONSTRAINT coupons_within_limit CHECK (redemption_limit IS NULL OR redeemed <= redemption_limit)
);

-- A code is unique in its scope among coupons not ended: a store's codes at that store, the
-- chain's among the chain's. A store's coupon is found before a chain's with the same code.
CREATE UNIQUE INDEX coupons_store_code ON coupons (store_id, lower(code)) WHERE store_id IS NOT NULL AND ended_at IS NULL;
CREATE UNIQUE INDEX coupons_chain_code ON coupons (lower(code)) WHERE store_id IS NULL AND ended_at IS NULL;
CREATE INDEX coupons_store_newest ON coupons (store_id, created_at DESC, id DESC);

-- The coupon a cart carries: applied with PUT /v1/cart/coupon, checked again at checkout.
ALTER TABLE carts ADD COLUMN coupon_id uuid REFERENCES coupons (id) ON DELETE SET NULL;

-- What an order saved: in total, and each line's share (captured at checkout, never recomputed
-- from a later coupon). A line's share is at most what the line cost.
ALTER TABLE orders
    ADD COLUMN coupon_id uuid REFERENCES coupons (id),
    ADD COLUMN discount_amount bigint NOT NULL DEFAULT 0 CHECK (discount_amount >= 0);
ALTER TABLE order_lines
    ADD COLUMN discount_amount bigint NOT NULL DEFAULT 0,
    ADD CONSTRAINT order_lines_discount_within_line CHECK (discount_amount BETWEEN 0 AND unit_price * quantity);

CREATE TABLE coupon_redemptions (
    order_id         uuid PRIMARY KEY,
    store_id         uuid NOT NULL,
    coupon_id        uuid NOT NULL REFERENCES coupons (id),
    customer_id      uuid NOT NULL REFERENCES users (id),
    -- This customer's nth live use of the coupon, 1...per_customer_limit.
    nth              integer NOT NULL CHECK (nth >= 1),
    discount_amount  bigint NOT NULL CHECK (discount_amount >= 0),
    redeemed_at      timestamptz NOT NULL DEFAULT now(),
    -- The order was cancelled or expired: the redemption is given back.
    released_at      timestamptz,
    FOREIGN KEY (store_id, order_id) REFERENCES orders (store_id, id)
);
CREATE UNIQUE INDEX coupon_redemptions_per_customer ON coupon_redemptions (coupon_id, customer_id, nth) WHERE released_at IS NULL;
CREATE INDEX coupon_redemptions_coupon ON coupon_redemptions (coupon_id, redeemed_at DESC);

-- Guessing codes is throttled per account: failed applications in the current window.
CREATE TABLE coupon_attempts (
    customer_id   uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    window_start  timestamptz NOT NULL,
    failures      integer NOT NULL CHECK (failures >= 0)
);

-- The cart and checkout functions change shape to carry discounts; their routine files make them again.
DROP FUNCTION IF EXISTS cart_view(uuid);
DROP FUNCTION IF EXISTS place_order(uuid, uuid, uuid, text, text, bytea, timestamptz, timestamptz, integer, integer, text, timestamptz);
