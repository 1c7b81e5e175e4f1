-- For each of `p_product_ids`, in order, whether `p_coupon` applies to its line
-- (coupon_applies_to). A coupon limited to nothing applies to every line, answered without a
-- query: the common coupon, and the cart and checkout ask on every read and order (issue 26).
CREATE OR REPLACE FUNCTION coupon_lines_applied(p_coupon coupons, p_product_ids uuid[])
RETURNS boolean[] LANGUAGE plpgsql STABLE AS $$
BEGIN
    IF cardinality(p_coupon.product_ids) = 0 AND cardinality(p_coupon.categories) = 0 THEN
        RETURN array_fill(true, ARRAY[coalesce(cardinality(p_product_ids), 0)]);
    END IF;
    RETURN ARRAY(SELECT coupon_applies_to(p_coupon, u.product_id)
                   FROM unnest(p_product_ids) WITH ORDINALITY AS u(product_id, i) ORDER BY u.i);
END
$$;
