-- What of a cart's lines a coupon applies to, in minor units: the sum of `p_amounts` (each line's
-- unit price × quantity, beside `p_product_ids`) over the lines coupon_applies_to says it covers,
-- the same lines coupon_discounts shares it over. Checkout (place_order) passes it to
-- coupon_refusal as `p_eligible`.
-- PL/pgSQL, so PostgreSQL keeps its plan per connection (issue 15: a LANGUAGE sql function that is
-- not inlined is planned again at every call; checkout-bench found the coupon's routines doing so).
CREATE OR REPLACE FUNCTION coupon_eligible_amount(p_coupon coupons, p_product_ids uuid[], p_amounts bigint[])
RETURNS bigint LANGUAGE plpgsql STABLE AS $$
BEGIN
    RETURN (
        SELECT coalesce(sum(u.amount), 0)::bigint
        FROM unnest(p_product_ids, p_amounts) AS u(product_id, amount)
        WHERE coupon_applies_to(p_coupon, u.product_id)
    );
END
$$;
