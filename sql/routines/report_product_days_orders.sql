-- Orders whose status changed (packaged, collected, cancelled by the customer or the store,
-- expired uncollected): each line's count under the old status comes off and under the new one
-- goes on (report_product_days_add); a change within a kind (packaged to completed) nets to
-- nothing but what packaging released of lines picked short. A placing time moved (tests and
-- corrections do) moves the lines to the new day the same way. A row trigger, fired only when one
-- of those changed (report_product_days_orders.trigger.sql): comparing a statement's old and new
-- rows joined two transition tables, which a sweep of 83,000 orders took minutes to do.
CREATE OR REPLACE FUNCTION report_product_days_orders() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM report_product_days_add(array_agg(c.store_id), array_agg(c.created_at), array_agg(c.status = 'cancelled'),
                                    array_agg(l.product_id), array_agg(c.sign), array_agg(c.sign * h.units::bigint),
                                    array_agg(c.sign * h.amount))
    FROM (VALUES (1, NEW.store_id, NEW.created_at, NEW.status), (-1, OLD.store_id, OLD.created_at, OLD.status))
        AS c (sign, store_id, created_at, status)
    JOIN order_lines l ON l.order_id = NEW.id
    CROSS JOIN LATERAL report_line_held(l, c.status) h
    WHERE h.units > 0
    HAVING count(*) > 0;
    RETURN NULL;
END $$;
