-- Why `p_coupon` cannot be used by `p_customer` at `p_store` at `p_at` on a cart whose lines
-- come to `p_subtotal` and whose lines the coupon applies to come to `p_eligible` (minor units),
-- or NULL when it can. The cart (PUT /v1/cart/coupon, and reading the cart) and checkout
-- (place_order, holding the coupon row's lock) both ask this, so they refuse alike:
--   {"code": "coupon_expired"} ended early or past valid_until
--   {"code": "coupon_not_yet_valid", "validFrom": ...}
--   {"code": "coupon_not_applicable"} another currency, or no line it applies to
--   {"code": "coupon_exhausted"} its total number of redemptions is used up
--   {"code": "coupon_already_used"} this customer's number of uses is used up
--   {"code": "coupon_minimum_spend", "minimumSpend": n, "shortfall": n}
-- A coupon that is not found is the caller's coupon_unknown.
-- PL/pgSQL, so PostgreSQL keeps its plan per connection (issue 15: a LANGUAGE sql function that is
-- not inlined is planned again at every call; checkout-bench found the coupon's routines doing so).
CREATE OR REPLACE FUNCTION coupon_refusal(
    p_coupon coupons, p_customer uuid, p_store uuid, p_subtotal bigint, p_eligible bigint, p_at timestamptz
) RETURNS json LANGUAGE plpgsql STABLE AS $$
BEGIN
    RETURN (
        SELECT CASE
            WHEN p_coupon.ended_at IS NOT NULL OR p_coupon.valid_until <= p_at THEN json_build_object('code', 'coupon_expired')
            WHEN p_coupon.valid_from > p_at THEN json_build_object('code', 'coupon_not_yet_valid', 'validFrom', api_time(p_coupon.valid_from))
            WHEN (p_coupon.store_id IS NOT NULL AND p_coupon.store_id <> p_store)
                 OR (p_coupon.currency IS NOT NULL AND p_coupon.currency <> (SELECT s.currency FROM stores s WHERE s.id = p_store))
                 OR p_eligible <= 0 THEN json_build_object('code', 'coupon_not_applicable')
            WHEN p_coupon.redemption_limit IS NOT NULL AND p_coupon.redeemed >= p_coupon.redemption_limit
                THEN json_build_object('code', 'coupon_exhausted')
            WHEN p_coupon.per_customer_limit IS NOT NULL AND (
                SELECT count(*) FROM coupon_redemptions r
                WHERE r.coupon_id = p_coupon.id AND r.customer_id = p_customer AND r.released_at IS NULL) >= p_coupon.per_customer_limit
                THEN json_build_object('code', 'coupon_already_used')
            WHEN p_coupon.minimum_spend IS NOT NULL AND p_subtotal < p_coupon.minimum_spend
                THEN json_build_object('code', 'coupon_minimum_spend', 'minimumSpend', p_coupon.minimum_spend,
                                       'shortfall', p_coupon.minimum_spend - p_subtotal)
        END
    );
END
$$;
