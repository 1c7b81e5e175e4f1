-- What of a cart's lines a coupon applies to, in minor units: the sum of `p_amounts` (each line's
-- unit price × quantity, beside `p_product_ids`) over the lines of its products or categories
-- (none of either: every line). The same rule as coupon_discounts; checkout (place_order) passes
-- it to coupon_refusal as `p_eligible`.
CREATE OR REPLACE FUNCTION coupon_eligible_amount(p_coupon coupons, p_product_ids uuid[], p_amounts bigint[])
RETURNS bigint LANGUAGE sql STABLE AS $$
    SELECT coalesce(sum(u.amount), 0)::bigint
    FROM unnest(p_product_ids, p_amounts) AS u(product_id, amount)
    LEFT JOIN products p ON p.id = u.product_id
    WHERE (cardinality(p_coupon.product_ids) = 0 AND cardinality(p_coupon.categories) = 0)
       OR u.product_id = ANY (p_coupon.product_ids)
       OR p.category = ANY (p_coupon.categories)
$$;
