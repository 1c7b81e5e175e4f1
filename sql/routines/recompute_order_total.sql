-- An order's total becomes what its lines now hold (held_quantity), each after the part of its
-- coupon share that goes with those units (order_line_amount: never negative, never more back
-- than the line paid), and its discount the sum of those parts. Every change to what an order
-- holds comes through here: packing short and removing restricted lines
-- (OrderQueries.recomputeTotal), a substitution and the customer's decision on it
-- (substitute_order_line, decide_substitution). `p_packaged`: the order is packed (short lines
-- hold what was picked). Call with the order's stock rows locked.
CREATE OR REPLACE FUNCTION recompute_order_total(p_order uuid, p_packaged boolean) RETURNS void LANGUAGE sql AS $$
    UPDATE orders SET (total_amount, discount_amount) = (
        SELECT coalesce(sum(a.amount), 0), coalesce(sum(a.price - a.amount), 0)
        FROM order_lines l
        CROSS JOIN LATERAL (SELECT l.unit_price * held_quantity(l, p_packaged) AS price,
                                   order_line_amount(l, held_quantity(l, p_packaged)) AS amount) a
        WHERE l.order_id = p_order)
    WHERE id = p_order
$$;
