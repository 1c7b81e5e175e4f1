-- A product recategorised, discontinued or restored: its old place leaves the counts and its new
-- one joins them, in the whole catalogue's and at every store that carries it.
CREATE OR REPLACE FUNCTION category_counts_product_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM add_category_counts(array_agg(w.store_id), array_agg(d.category), array_agg(d.delta))
    FROM (SELECT NULL::uuid AS store_id UNION ALL SELECT s.store_id FROM stock s WHERE s.product_id = NEW.id) w
    CROSS JOIN (VALUES (OLD.category, CASE WHEN OLD.discontinued THEN 0 ELSE -1 END),
                       (NEW.category, CASE WHEN NEW.discontinued THEN 0 ELSE 1 END)) AS d (category, delta);
    RETURN NULL;
END $$;
