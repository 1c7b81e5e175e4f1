-- Order lines written (checkout, a substitute), changed (picked, short, removed at the desk, a
-- substitute decided) or deleted: what they counted for before comes off their product's day
-- and what they count for now goes on (report_product_days_add), with their order's status now.
-- `added` and `removed` are the statement's transition tables (report_product_days_lines_*.trigger.sql).
CREATE OR REPLACE FUNCTION report_product_days_lines() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM report_product_days_add(array_agg(o.store_id), array_agg(o.created_at), array_agg(o.status = 'cancelled'),
                                        array_agg(a.product_id), array_agg(1), array_agg(h.units::bigint), array_agg(h.amount))
        FROM added a JOIN orders o ON o.id = a.order_id CROSS JOIN LATERAL report_line_held(a, o.status) h
        WHERE h.units > 0
        HAVING count(*) > 0;
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM report_product_days_add(array_agg(o.store_id), array_agg(o.created_at), array_agg(o.status = 'cancelled'),
                                        array_agg(r.product_id), array_agg(-1), array_agg(-h.units::bigint), array_agg(-h.amount))
        FROM removed r JOIN orders o ON o.id = r.order_id CROSS JOIN LATERAL report_line_held(r, o.status) h
        WHERE h.units > 0
        HAVING count(*) > 0;
    ELSE
        PERFORM report_product_days_add(array_agg(o.store_id), array_agg(o.created_at), array_agg(o.status = 'cancelled'),
                                        array_agg(c.product_id), array_agg(c.sign), array_agg(c.sign * c.units::bigint),
                                        array_agg(c.sign * c.amount))
        FROM (SELECT 1 AS sign, a.order_id, a.product_id, h.units, h.amount
              FROM added a JOIN orders o ON o.id = a.order_id CROSS JOIN LATERAL report_line_held(a, o.status) h
              WHERE h.units > 0
              UNION ALL
              SELECT -1, r.order_id, r.product_id, h.units, h.amount
              FROM removed r JOIN orders o ON o.id = r.order_id CROSS JOIN LATERAL report_line_held(r, o.status) h
              WHERE h.units > 0) c
        JOIN orders o ON o.id = c.order_id
        HAVING count(*) > 0;
    END IF;
    RETURN NULL;
END $$;
