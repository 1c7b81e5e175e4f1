-- What a line costs when it holds `p_held` of what it ordered (held_quantity): its unit price ×
-- `p_held`, less the part of its coupon share (order_lines.discount_amount, captured at checkout
-- for the whole quantity) that goes with those units: share × held ÷ quantity, rounded half to
-- even (the one rounding rule). That part is never more than the units' price (the share is at
-- most the line's price), so a line is never negative; all held keeps the whole share, none
-- keeps none. What a paid order owes back (OrderQueries.reconcileRefund) is what was paid less
-- the sum of these, so a line never gives back more than it was paid after its share.
-- Every recomputation of orders.total_amount uses this (OrderQueries.releaseShortLines,
-- RestrictedLineQueries.remove); orders.discount_amount is the sum of the kept parts. What a
-- prepaid order was charged is this of all it ordered (PaymentQueries).
CREATE OR REPLACE FUNCTION order_line_amount(line order_lines, p_held integer) RETURNS bigint
LANGUAGE sql IMMUTABLE AS $$
    SELECT (line.unit_price::numeric * held - least(greatest(kept, 0), line.unit_price::numeric * held))::bigint
    FROM (SELECT held, CASE WHEN 2 * r > q_total OR (2 * r = q_total AND mod(q, 2) <> 0) THEN q + 1 ELSE q END AS kept
          FROM (SELECT held, q_total, div(n, q_total) AS q, mod(n, q_total) AS r
                FROM (SELECT greatest(coalesce(p_held, 0), 0) AS held, greatest(line.quantity, 1)::numeric AS q_total,
                             line.discount_amount::numeric * least(greatest(coalesce(p_held, 0), 0), line.quantity) AS n) AS inputs)
               AS parts) AS rounded
$$;
