-- A cart line set and the cart as it then stands, in one statement (issue 15): PUT
-- /v1/cart/items/{id} was two round trips, set_cart_line and then cart_view; now it is one.
--
-- PL/pgSQL, so the read is a new query that sees the line's own write (cart_view is STABLE, and a
-- STABLE function called beside set_cart_line in the caller's statement would read that
-- statement's snapshot, from before the write). A NULL customer (a caller the service will
-- refuse) writes nothing and reads nothing: one row of NULLs after set_cart_line's answer.
CREATE OR REPLACE FUNCTION set_cart_line_viewed(
    p_customer uuid, p_product uuid, p_quantity integer, p_substitution text DEFAULT NULL, p_substitute_ids uuid[] DEFAULT NULL)
RETURNS TABLE (discontinued boolean, written boolean, store_id uuid, currency text, product_id uuid, name text,
               price_amount bigint, quantity integer, available integer, line_discontinued boolean,
               -- The cart's coupon (issue 26, COUPONS): cart_view's last two columns.
               line_discount bigint, coupon_json text,
               -- The line's substitution preference (issue 27): cart_view's last two.
               substitution text, substitute_ids uuid[])
LANGUAGE plpgsql AS $$
DECLARE
    v_line record;
BEGIN
    SELECT * INTO v_line FROM set_cart_line(p_customer, p_product, p_quantity, p_substitution, p_substitute_ids);
    IF p_customer IS NULL THEN
        RETURN QUERY SELECT v_line.discontinued, v_line.written,
            NULL::uuid, NULL::text, NULL::uuid, NULL::text, NULL::bigint, NULL::integer, NULL::integer, NULL::boolean,
            NULL::bigint, NULL::text, NULL::text, NULL::uuid[];
        RETURN;
    END IF;
    RETURN QUERY SELECT v_line.discontinued, v_line.written, v.* FROM cart_view(p_customer) v;
END
$$;
