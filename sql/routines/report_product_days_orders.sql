-- Orders whose status changed (packaged, collected, cancelled by the customer or the store,
-- expired uncollected): each line's count under the old status comes off and under the new one
-- goes on (report_product_days_add); a change within a kind (packaged to completed) nets to
-- nothing but what packaging released of lines picked short. A placing time moved (tests and
-- corrections do) moves the lines to the new day the same way. `before` and `after` are the
-- statement's transition tables (report_product_days_orders.trigger.sql).
CREATE OR REPLACE FUNCTION report_product_days_orders() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM report_product_days_add(array_agg(c.store_id), array_agg(c.created_at), array_agg(c.status = 'cancelled'),
                                    array_agg(l.product_id), array_agg(c.sign), array_agg(c.sign * h.units::bigint),
                                    array_agg(c.sign * h.amount))
    FROM after n
    JOIN before b ON b.id = n.id AND (b.status, b.created_at, b.store_id) IS DISTINCT FROM (n.status, n.created_at, n.store_id)
    CROSS JOIN LATERAL (VALUES (1, n.store_id, n.created_at, n.status), (-1, b.store_id, b.created_at, b.status))
        AS c (sign, store_id, created_at, status)
    JOIN order_lines l ON l.order_id = n.id
    CROSS JOIN LATERAL report_line_held(l, c.status) h
    WHERE h.units > 0
    HAVING count(*) > 0;
    RETURN NULL;
END $$;
