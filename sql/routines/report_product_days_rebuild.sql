-- Recounts a store's report_product_days from its orders' lines, in the store's zone now
-- (report_zone): its days are the zone's days, so a store whose calendar's zone changed is
-- counted again (report_product_days_zone). Holds the store's report lock alone, so writers
-- in flight finish first (their lines are then read here) and those after wait for the new zone.
-- (Migration 061 counted every store the same way once.)
CREATE OR REPLACE FUNCTION report_product_days_rebuild(p_store uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_advisory_xact_lock(46, hashtext(p_store::text));
    DELETE FROM report_product_days WHERE store_id = p_store;
    INSERT INTO report_product_days (store_id, day, uncollected, product_id, lines, units, amount)
    SELECT o.store_id, (o.created_at AT TIME ZONE report_zone(p_store))::date, o.status = 'cancelled', l.product_id, count(*),
           sum(h.units), sum(h.amount)
    FROM orders o
    JOIN order_lines l ON l.order_id = o.id
    CROSS JOIN LATERAL report_line_held(l, o.status) h
    WHERE o.store_id = p_store AND h.units > 0
    GROUP BY 1, 2, 3, 4;
END $$;
