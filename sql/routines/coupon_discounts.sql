-- A coupon's discount split over cart lines: `p_product_ids` and `p_amounts` (each line's unit
-- price × quantity) in any order; the answer is each line's share in the same order, 0 for a
-- line the coupon does not apply to (coupon_applies_to: its products and categories; none of
-- either is every line).
--
-- The total is percentage_of(what it applies to) for a percent coupon (half to even, the one
-- rounding rule) or the amount off, at most what it applies to. It is shared in proportion to
-- the lines' amounts, rounded down, and the minor units left over go one each to the lines with
-- the largest remainders (then the lower product id), so the shares add up to the total exactly
-- and none exceeds its line. The cart shows these shares and checkout captures the same ones.
-- PL/pgSQL, so PostgreSQL keeps its plan per connection (issue 15: a LANGUAGE sql function that is
-- not inlined is planned again at every call; checkout-bench found the coupon's routines doing so).
CREATE OR REPLACE FUNCTION coupon_discounts(p_coupon coupons, p_product_ids uuid[], p_amounts bigint[])
RETURNS bigint[] LANGUAGE plpgsql STABLE AS $$
BEGIN
    RETURN (
        WITH line AS (
            SELECT u.i, u.product_id, u.amount, coupon_applies_to(p_coupon, u.product_id) AS applies
            FROM unnest(p_product_ids, p_amounts) WITH ORDINALITY AS u(product_id, amount, i)
        ),
        base AS (SELECT coalesce(sum(amount) FILTER (WHERE applies), 0)::numeric AS eligible FROM line),
        total AS (
            SELECT eligible, CASE WHEN eligible = 0 THEN 0
                                  WHEN p_coupon.kind = 'percent' THEN percentage_of(eligible::bigint, p_coupon.percent_basis_points)
                                  ELSE least(p_coupon.amount_off, eligible::bigint) END::numeric AS amount
            FROM base
        ),
        share AS (
            SELECT l.i, l.product_id, l.applies,
                   CASE WHEN l.applies AND t.eligible > 0 THEN div(t.amount * l.amount, t.eligible) ELSE 0 END AS floor_share,
                   CASE WHEN l.applies AND t.eligible > 0 THEN mod(t.amount * l.amount, t.eligible) ELSE 0 END AS remainder
            FROM line l CROSS JOIN total t
        ),
        ranked AS (
            SELECT s.i, s.floor_share,
                   row_number() OVER (ORDER BY s.remainder DESC, s.product_id) AS place,
                   s.remainder,
                   (SELECT t.amount FROM total t) - sum(s.floor_share) OVER () AS left_over
            FROM share s
        )
        SELECT array_agg((floor_share + CASE WHEN remainder > 0 AND place <= left_over THEN 1 ELSE 0 END)::bigint ORDER BY i)
        FROM ranked
    );
END
$$;
