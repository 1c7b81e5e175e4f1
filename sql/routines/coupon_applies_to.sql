-- Whether `p_coupon` applies to a line of `p_product`: to every line when it names no products
-- and no categories, else to the products it names and to the products of the categories it
-- names. coupon_discounts shares a coupon over these lines, and the cart and checkout add them
-- up as what it applies to (coupon_refusal's `p_eligible`).
CREATE OR REPLACE FUNCTION coupon_applies_to(p_coupon coupons, p_product uuid) RETURNS boolean
LANGUAGE sql STABLE AS $$
    SELECT (cardinality(p_coupon.product_ids) = 0 AND cardinality(p_coupon.categories) = 0)
        OR p_product = ANY (p_coupon.product_ids)
        OR (cardinality(p_coupon.categories) > 0
            AND coalesce((SELECT p.category = ANY (p_coupon.categories) FROM products p WHERE p.id = p_product), false))
$$;
