-- The coupon a customer's cart carries, as the cart shows it at `p_store` now (cart_view joins
-- this one row to each of its rows; no row when the cart has no coupon):
--   coupon: JSON text of what it is, `discount` (the total) and `problem`, coupon_refusal's
--           answer when it cannot be used now (expired, the spend fell below its minimum...),
--           else null. A coupon with a problem stays on the cart and discounts nothing;
--           checkout refuses it with the same code.
--   product_ids, discounts: each line's share (coupon_discounts over the lines at the prices the
--           cart shows, quoted_price × quantity: cart_view has just brought every quoted price
--           up to the store's price now), in product order.
-- Checkout (place_order) asks coupon_refusal and coupon_discounts over the same amounts, so the
-- order captures the discount the cart showed.
-- PL/pgSQL, so PostgreSQL keeps its plan per connection (issue 15: a LANGUAGE sql function that is
-- not inlined is planned again at every call; checkout-bench found the coupon's routines doing so),
-- and step by step: two reads (the coupon, the lines), then arithmetic on arrays (issue 26: one
-- query of nested CTEs cost the cart read more than everything else in it).
CREATE OR REPLACE FUNCTION cart_coupon(p_customer uuid, p_store uuid)
RETURNS TABLE (coupon text, product_ids uuid[], discounts bigint[])
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
DECLARE
    v_coupon coupons;
    v_ids uuid[];
    v_amounts bigint[];
    v_subtotal numeric := 0;
    v_problem json;
    v_shares bigint[];
    v_discount numeric := 0;
BEGIN
    SELECT k.* INTO v_coupon FROM carts c JOIN coupons k ON k.id = c.coupon_id WHERE c.customer_id = p_customer;
    IF v_coupon.id IS NULL THEN
        RETURN;
    END IF;
    SELECT coalesce(array_agg(i.product_id ORDER BY i.product_id), '{}'),
           coalesce(array_agg(coalesce(i.quoted_price, store_price(i.product_id, p_store), 0) * i.quantity ORDER BY i.product_id), '{}')
      INTO v_ids, v_amounts
      FROM cart_items i WHERE i.customer_id = p_customer;
    FOR i IN 1..cardinality(v_ids) LOOP
        v_subtotal := v_subtotal + v_amounts[i];
    END LOOP;
    v_problem := coupon_refusal(v_coupon, p_customer, p_store, v_subtotal::bigint,
                                coupon_eligible_amount(v_coupon, v_ids, v_amounts), now());
    IF v_problem IS NULL AND cardinality(v_ids) > 0 THEN
        v_shares := coupon_discounts(v_coupon, v_ids, v_amounts);
    ELSE
        v_shares := array_fill(0::bigint, ARRAY[cardinality(v_ids)]);
    END IF;
    FOR i IN 1..cardinality(v_shares) LOOP
        v_discount := v_discount + v_shares[i];
    END LOOP;
    coupon := json_build_object(
        'id', v_coupon.id, 'code', v_coupon.code, 'description', v_coupon.description, 'kind', v_coupon.kind,
        'percentOffBasisPoints', v_coupon.percent_basis_points, 'amountOff', v_coupon.amount_off,
        'minimumSpend', v_coupon.minimum_spend, 'currency', v_coupon.currency,
        'discount', v_discount::bigint, 'problem', v_problem)::text;
    product_ids := v_ids;
    discounts := v_shares;
    RETURN NEXT;
END
$$;
