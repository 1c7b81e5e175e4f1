-- New products count in the whole catalogue's counts (no store carries them until its stock
-- row is added); `added` is the statement's transition table.
CREATE OR REPLACE FUNCTION category_counts_products_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM add_category_counts(array_agg(NULL::uuid), array_agg(g.category), array_agg(g.n))
    FROM (SELECT p.category, count(*) AS n FROM added p WHERE NOT p.discontinued AND p.category <> '' GROUP BY p.category) g
    HAVING count(*) > 0;
    RETURN NULL;
END $$;
