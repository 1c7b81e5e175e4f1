-- `p_basis_points` of `p_amount` (1,250 is 12.5 %) in whole minor units, rounded half to even:
-- the one rounding rule of the product, the same as Money.percentage(of:basisPoints:) in Swift
-- (MoneyTests and RoutineTests check both on the same halves). Basis points are held to
-- 0...10,000, so the answer never exceeds the amount.
CREATE OR REPLACE FUNCTION percentage_of(p_amount bigint, p_basis_points integer) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT AS $$
    SELECT (CASE WHEN abs(r) * 2 > 10000 OR (abs(r) * 2 = 10000 AND q % 2 <> 0) THEN q + sign(n) ELSE q END)::bigint
    FROM (SELECT n, div(n, 10000) AS q, mod(n, 10000) AS r
          FROM (SELECT p_amount::numeric * least(greatest(p_basis_points, 0), 10000) AS n) AS product) AS parts
$$;
