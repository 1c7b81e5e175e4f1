-- What of a cart's lines a coupon applies to, in minor units: the sum of `p_amounts` (each line's
-- unit price × quantity, beside `p_product_ids`) over the lines coupon_applies_to says it covers
-- (coupon_lines_applied), the same lines coupon_discounts shares it over. Checkout (place_order)
-- and the cart (cart_coupon) pass it to coupon_refusal as `p_eligible`.
-- Arithmetic in PL/pgSQL, no query for a coupon limited to nothing (issue 26: on every cart read).
CREATE OR REPLACE FUNCTION coupon_eligible_amount(p_coupon coupons, p_product_ids uuid[], p_amounts bigint[])
RETURNS bigint LANGUAGE plpgsql STABLE AS $$
DECLARE
    v_applies boolean[] := coupon_lines_applied(p_coupon, p_product_ids);
    v_eligible numeric := 0;
BEGIN
    FOR i IN 1..coalesce(cardinality(p_product_ids), 0) LOOP
        IF v_applies[i] THEN v_eligible := v_eligible + p_amounts[i]; END IF;
    END LOOP;
    RETURN v_eligible::bigint;
END
$$;
