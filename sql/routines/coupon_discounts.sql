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
--
-- Arithmetic on the arrays in PL/pgSQL, with no query unless the coupon is limited to products
-- or categories (issue 26: the cart and checkout call this on every read and order, and a query
-- with a window to rank the remainders cost more than the rest of the coupon together; the
-- minor units left over are fewer than the lines, so ranking them by repeated search is cheap).
CREATE OR REPLACE FUNCTION coupon_discounts(p_coupon coupons, p_product_ids uuid[], p_amounts bigint[])
RETURNS bigint[] LANGUAGE plpgsql STABLE AS $$
DECLARE
    v_count integer := coalesce(cardinality(p_product_ids), 0);
    v_applies boolean[] := coupon_lines_applied(p_coupon, p_product_ids);
    v_shares bigint[] := array_fill(0::bigint, ARRAY[v_count]);
    v_remainders numeric[] := array_fill(0::numeric, ARRAY[v_count]);
    v_eligible numeric := 0;
    v_total numeric;
    v_left numeric;
    v_best integer;
BEGIN
    FOR i IN 1..v_count LOOP
        IF v_applies[i] THEN v_eligible := v_eligible + p_amounts[i]; END IF;
    END LOOP;
    IF v_eligible <= 0 THEN
        RETURN v_shares;
    END IF;
    v_total := CASE WHEN p_coupon.kind = 'percent' THEN percentage_of(v_eligible::bigint, p_coupon.percent_basis_points)
                    ELSE least(p_coupon.amount_off, v_eligible::bigint) END;
    v_left := v_total;
    FOR i IN 1..v_count LOOP
        IF v_applies[i] THEN
            v_shares[i] := div(v_total * p_amounts[i], v_eligible);
            v_remainders[i] := mod(v_total * p_amounts[i], v_eligible);
            v_left := v_left - v_shares[i];
        END IF;
    END LOOP;
    -- The remainders add up to v_left × v_eligible and each is below v_eligible, so there are
    -- more lines with a remainder than units left over: every search below finds one.
    WHILE v_left > 0 LOOP
        v_best := NULL;
        FOR i IN 1..v_count LOOP
            IF v_remainders[i] > 0 AND (v_best IS NULL OR v_remainders[i] > v_remainders[v_best]
                OR (v_remainders[i] = v_remainders[v_best] AND p_product_ids[i] < p_product_ids[v_best])) THEN
                v_best := i;
            END IF;
        END LOOP;
        EXIT WHEN v_best IS NULL;
        v_shares[v_best] := v_shares[v_best] + 1;
        v_remainders[v_best] := 0;
        v_left := v_left - 1;
    END LOOP;
    RETURN v_shares;
END
$$;
