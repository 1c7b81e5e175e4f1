-- Adds what lines count for (report_line_held, signed: taken off with -1) to their stores' days
-- in report_product_days, the day the order was placed (`p_at`) in the store's zone
-- (report_zone). One upsert adding each difference to the row (INSERT ... ON CONFLICT DO
-- UPDATE), so writers at once into one product's day each add theirs and none is lost; rows
-- taken in one order (the key's) so two writers never wait on each other crosswise.
-- Each store's report lock is held shared first: report_product_days_rebuild holds it alone
-- while it recounts a store whose zone changed, and a writer reads the zone after it.
CREATE OR REPLACE FUNCTION report_product_days_add(
    p_store uuid[], p_at timestamptz[], p_uncollected boolean[], p_product uuid[], p_lines integer[], p_units bigint[],
    p_amount bigint[]
) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_advisory_xact_lock_shared(46, hashtext(s.store_id::text))
    FROM (SELECT DISTINCT unnest(p_store) AS store_id ORDER BY 1) s;
    INSERT INTO report_product_days AS t (store_id, day, uncollected, product_id, lines, units, amount)
    SELECT c.store_id, (c.at AT TIME ZONE report_zone(c.store_id))::date, c.uncollected, c.product_id, sum(c.lines), sum(c.units),
           sum(c.amount)
    FROM unnest(p_store, p_at, p_uncollected, p_product, p_lines, p_units, p_amount)
         AS c (store_id, at, uncollected, product_id, lines, units, amount)
    GROUP BY 1, 2, 3, 4
    HAVING sum(c.lines) <> 0 OR sum(c.units) <> 0 OR sum(c.amount) <> 0
    ORDER BY 1, 2, 3, 4
    ON CONFLICT (store_id, day, uncollected, product_id) DO UPDATE
    SET lines = t.lines + excluded.lines, units = t.units + excluded.units, amount = t.amount + excluded.amount;
END $$;
