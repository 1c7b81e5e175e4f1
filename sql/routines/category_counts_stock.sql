-- A store started (INSERT) or stopped (DELETE) carrying products: their categories' counts at
-- that store move by one each (category_counts_stock_*.trigger.sql; `changed` is the statement's
-- transition table, so a load of 100,000 stock rows is one aggregate, not 100,000 updates).
CREATE OR REPLACE FUNCTION category_counts_stock() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM add_category_counts(array_agg(g.store_id), array_agg(g.category), array_agg(g.n))
    FROM (SELECT s.store_id, p.category, count(*) * CASE TG_OP WHEN 'DELETE' THEN -1 ELSE 1 END AS n
          FROM changed s JOIN products p ON p.id = s.product_id
          WHERE NOT p.discontinued AND p.category <> ''
          GROUP BY s.store_id, p.category) g
    HAVING count(*) > 0;
    RETURN NULL;
END $$;
