-- The coupon a customer's cart carries, as the cart shows it at `p_store` now (cart_view joins
-- this one row to each of its rows; no row when the cart has no coupon):
--   coupon: JSON text of what it is, `discount` (the total) and `problem`, coupon_refusal's
--           answer when it cannot be used now (expired, the spend fell below its minimum...),
--           else null. A coupon with a problem stays on the cart and discounts nothing;
--           checkout refuses it with the same code.
--   product_ids, discounts: each line's share (coupon_discounts over the lines at their
--           current prices, store_price × quantity), in product order.
-- Checkout (place_order) asks coupon_refusal and coupon_discounts over the same amounts, so the
-- order captures the discount the cart showed.
-- PL/pgSQL, so PostgreSQL keeps its plan per connection (issue 15: a LANGUAGE sql function that is
-- not inlined is planned again at every call; checkout-bench found the coupon's routines doing so).
CREATE OR REPLACE FUNCTION cart_coupon(p_customer uuid, p_store uuid)
RETURNS TABLE (coupon text, product_ids uuid[], discounts bigint[])
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
    RETURN QUERY
        WITH held AS (
            SELECT cp FROM carts ct JOIN coupons cp ON cp.id = ct.coupon_id WHERE ct.customer_id = p_customer
        ),
        line AS (
            SELECT i.product_id, coalesce(store_price(i.product_id, p_store), 0) * i.quantity AS amount
            FROM cart_items i
            WHERE i.customer_id = p_customer AND EXISTS (SELECT 1 FROM held)
        ),
        checked AS (
            SELECT h.cp, t.ids, t.amounts, coupon_refusal(h.cp, p_customer, p_store, t.subtotal, t.eligible, now()) AS problem
            FROM held h CROSS JOIN LATERAL (
                SELECT coalesce(array_agg(l.product_id ORDER BY l.product_id), '{}') AS ids,
                       coalesce(array_agg(l.amount ORDER BY l.product_id), '{}') AS amounts,
                       coalesce(sum(l.amount), 0)::bigint AS subtotal,
                       coalesce(sum(l.amount) FILTER (WHERE coupon_applies_to(h.cp, l.product_id)), 0)::bigint AS eligible
                FROM line l
            ) AS t
        ),
        shared AS (
            SELECT c.cp, c.ids, c.problem,
                   CASE WHEN c.problem IS NULL AND cardinality(c.ids) > 0 THEN coupon_discounts(c.cp, c.ids, c.amounts)
                        ELSE array_fill(0::bigint, ARRAY[cardinality(c.ids)]) END AS shares
            FROM checked c
        )
        SELECT json_build_object(
                   'id', (s.cp).id, 'code', (s.cp).code, 'description', (s.cp).description, 'kind', (s.cp).kind,
                   'percentOffBasisPoints', (s.cp).percent_basis_points, 'amountOff', (s.cp).amount_off,
                   'minimumSpend', (s.cp).minimum_spend, 'currency', (s.cp).currency,
                   'discount', (SELECT coalesce(sum(x), 0) FROM unnest(s.shares) AS x), 'problem', s.problem)::text,
               s.ids, s.shares
        FROM shared s;
END
$$;
