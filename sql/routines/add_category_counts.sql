-- Adds deltas[i] to the count of categories[i] at stores[i] (NULL: the whole catalogue's),
-- making the rows it needs (migration 050). Rows are changed in one order, stores first and the
-- catalogue's last, so two statements changing counts at once wait for each other, never deadlock.
CREATE OR REPLACE FUNCTION add_category_counts(stores uuid[], categories text[], deltas int8[]) RETURNS void LANGUAGE sql AS $$
    INSERT INTO category_counts AS c (store_id, category, product_count)
    SELECT u.store_id, u.category, sum(u.delta)
    FROM unnest(stores, categories, deltas) AS u (store_id, category, delta)
    WHERE u.category <> ''
    GROUP BY u.store_id, u.category
    HAVING sum(u.delta) <> 0
    ORDER BY u.store_id NULLS LAST, u.category
    ON CONFLICT (store_id, category) DO UPDATE SET product_count = c.product_count + EXCLUDED.product_count
$$;
