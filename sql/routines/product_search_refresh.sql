-- Keeps product_search and search_vocabulary in step with products, once per statement (a
-- catalogue import of thousands of rows is one set-based pass, not a trigger call per row).
-- Only products whose words or sale status changed are touched; a price change costs one
-- comparison per row.
--
-- A word leaves the vocabulary when no product on sale has it any more. Writers lock the
-- vocabulary rows they add or may remove (in word order, so two writers cannot deadlock within
-- one statement), and the check for "no product has it" runs after the lock, so a word another
-- transaction is adding a product with is never removed under it.
CREATE OR REPLACE FUNCTION product_search_refresh() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    v_added text[];
    v_gone text[];
BEGIN
    WITH wanted AS (
        SELECT n.id, CASE WHEN NOT n.discontinued THEN search_words(n.name, n.brand) END AS words
        FROM new_rows n
    ), changed AS (
        SELECT w.id, w.words, ps.words AS old_words
        FROM wanted w LEFT JOIN product_search ps ON ps.product_id = w.id
        WHERE w.words IS DISTINCT FROM ps.words
    ), removed AS (
        DELETE FROM product_search ps USING changed c WHERE ps.product_id = c.id AND c.words IS NULL
    ), written AS (
        INSERT INTO product_search (product_id, words)
        SELECT c.id, c.words FROM changed c WHERE c.words IS NOT NULL
        ON CONFLICT (product_id) DO UPDATE SET words = EXCLUDED.words
    )
    SELECT ARRAY(SELECT DISTINCT w FROM changed c, unnest(c.words) w WHERE w !~ '[0-9]'
                 EXCEPT SELECT DISTINCT w FROM changed c, unnest(c.old_words) w),
           ARRAY(SELECT DISTINCT w FROM changed c, unnest(c.old_words) w WHERE w !~ '[0-9]'
                 EXCEPT SELECT DISTINCT w FROM changed c, unnest(c.words) w)
    INTO v_added, v_gone;

    IF cardinality(v_added) + cardinality(v_gone) = 0 THEN
        RETURN NULL;
    END IF;
    -- Lock every word this statement adds or may remove, in one pass in word order.
    PERFORM 1 FROM search_vocabulary WHERE word = ANY (v_added || v_gone) ORDER BY word FOR UPDATE;
    INSERT INTO search_vocabulary (word)
    SELECT w FROM unnest(v_added) w ORDER BY w
    ON CONFLICT (word) DO NOTHING;
    -- A new statement, so a new snapshot: products committed by a writer that held one of these
    -- words' locks are seen here.
    DELETE FROM search_vocabulary sv
    WHERE sv.word = ANY (v_gone)
      AND NOT EXISTS (SELECT 1 FROM product_search ps WHERE ps.words @> ARRAY[sv.word]);
    RETURN NULL;
END
$$;
