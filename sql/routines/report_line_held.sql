-- What an order line counts for in the products report (issue 46) while its order has
-- `p_status`: the units it holds (held_quantity: all it ordered until packaged, then what was
-- picked; nothing once removed at the desk or a refused substitute) and what they cost
-- (order_line_amount; its identity when all is held). Kept in report_product_days by the
-- triggers of report_product_days_*.sql, and counted the same way when a store is recounted.
CREATE OR REPLACE FUNCTION report_line_held(line order_lines, p_status text, OUT units integer, OUT amount bigint)
LANGUAGE sql IMMUTABLE AS $$
    SELECT h.units,
           CASE WHEN h.units = line.quantity THEN line.unit_price * line.quantity - line.discount_amount
                ELSE order_line_amount(line, h.units) END
    FROM (SELECT held_quantity(line, p_status NOT IN ('pending', 'cancelled')) AS units) h
$$;
