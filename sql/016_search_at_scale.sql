-- 016_search_at_scale: catalogue search at 100,000 products in one statement the planner plans
-- well by itself (issue 15). The pattern pg_trgm's documentation recommends for typo-tolerant
-- search over many rows: a small table of the distinct words in names and brands, matched by
-- trigram word similarity against each word of the query, and an index on the products that
-- fetches those containing the words found.
--
-- Before: `q <% lower(name) OR q <% lower(brand)` on GIN trigram indexes, word_similarity() on
-- every candidate to rank. The planner priced `<%` as cheap and scored every row (290 ms at
-- 100,000 products); with seq scans turned off it still scored the 2,500-5,000 rows a brand or a
-- noun matches, computing trigrams of each name (p99 67-120 ms).
--
-- Now, for each word of the query (ProductQueries.search writes one part per word):
--   1. search_word_matches(word): the words of the catalogue like it (KNN on a GiST trigram
--      index over `search_vocabulary`, a few hundred or thousand rows), each weighed 1 (the
--      word itself), 0.7 (the best other match: the likely typo fix) or 0.4 (any other, down
--      to the 0.4 word similarity search has always accepted).
--   2. The products containing one of those words, every query word: `words && matches` on a
--      GIN index of `product_search`, one condition per query word, ANDed in the bitmap.
--   3. Their rank: the sum of each query word's best weight (search_word_weight, array
--      overlaps on a short array, no trigram work per row), plus a little for shorter names.
-- Only the page's rows are then joined to products, stock, aisles and images.

-- A name and brand as the words search matches: lower case, apostrophes dropped ("Busha
-- Browne's" -> busha, brownes), split on anything not a letter or digit, each word once, sorted.
-- The service splits a query the same way (ProductQueries.searchWords).
CREATE FUNCTION search_words(p_name text, p_brand text) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN ARRAY(
    SELECT DISTINCT w
    FROM regexp_split_to_table(lower(translate(p_name || ' ' || p_brand, '''’', '')), '[^[:alnum:]]+') w
    WHERE w <> ''
    ORDER BY w);

-- The words each product on sale is found by; discontinued products have no row. Kept by the
-- trigger below, never written by the service. Narrow on purpose: ranking reads one row per
-- candidate, and a short row (not the wide products row) is what keeps that cheap.
CREATE TABLE product_search (
    product_id  uuid PRIMARY KEY REFERENCES products (id) ON DELETE CASCADE,
    words       text[] NOT NULL
);

-- fastupdate off: no pending list, so a search right after a large catalogue import is as fast
-- as any other (a pending list is read by every search until vacuum merges it); the import
-- pays instead, a few milliseconds per thousand products.
CREATE INDEX product_search_words ON product_search USING gin (words) WITH (fastupdate = off);

-- Every word (without a digit) some product on sale is found by: what a query word is matched
-- against. Words with a digit (sizes, codes) are left out: "500g" should not find "400g", so
-- they only ever match exactly (search_word_matches).
CREATE TABLE search_vocabulary (
    word  text PRIMARY KEY
);

-- GiST, not GIN: only GiST orders by distance (`<<->`), so the nearest words come first and
-- the scan stops after a few.
CREATE INDEX search_vocabulary_trgm ON search_vocabulary USING gist (word gist_trgm_ops);

-- The catalogue words one query word matches: `words` all of them, `exact` the word itself
-- (weight 1), `near` the best other match, the likeliest correction of a typo (0.7; ties all
-- count), the rest 0.4; `single` is the weight when every match weighs the same (then no
-- product needs looking at to know it). All NULL when nothing matches: the search finds nothing.
--
-- Matches by word_similarity(query word, catalogue word) at the 0.4 floor search has always
-- used: "mozarela" - mozzarella 0.55, "lasko" - lasco 0.5, "chese" - cheese 0.63 (near) and
-- cheddar 0.5 (0.4); a prefix counts ("mozz" - mozzarella 0.8). At most the 20 nearest words,
-- so a short or vague word cannot fan out over the whole vocabulary.
CREATE FUNCTION search_word_matches(p_word text)
RETURNS TABLE (words text[], exact text[], near text[], single double precision)
LANGUAGE sql STABLE PARALLEL SAFE
BEGIN ATOMIC
    SELECT array_agg(m.word),
           array_agg(m.word) FILTER (WHERE m.weight = 1),
           array_agg(m.word) FILTER (WHERE m.weight = 0.7),
           CASE WHEN min(m.weight) = max(m.weight) THEN min(m.weight) END
    FROM (
        SELECT t.word,
               CASE WHEN t.similarity = 1 THEN 1
                    WHEN t.similarity = max(t.similarity) FILTER (WHERE t.similarity < 1) OVER () THEN 0.7
                    ELSE 0.4 END::double precision AS weight
        FROM (
            -- A word with a digit matches itself only (split as the product side splits it).
            SELECT w AS word, 1::real AS similarity
            FROM unnest(search_words(p_word, '')) w
            WHERE p_word ~ '[0-9]'
            UNION ALL
            SELECT v.word, word_similarity(p_word, v.word)
            FROM (SELECT sv.word FROM search_vocabulary sv WHERE p_word !~ '[0-9]' ORDER BY p_word <<-> sv.word LIMIT 20) v
        ) t
        WHERE t.similarity >= 0.4
    ) m;
END;

-- How well a product's words answer one query word (given search_word_matches' row for it):
-- the weight of its best match. Inlined by the planner into the ranking expression.
CREATE FUNCTION search_word_weight(p_words text[], p_exact text[], p_near text[], p_single double precision)
RETURNS double precision LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN COALESCE(p_single, CASE WHEN p_words && p_exact THEN 1::float8 WHEN p_words && p_near THEN 0.7::float8 ELSE 0.4::float8 END);

-- Keeps product_search and search_vocabulary in step with products, once per statement (a
-- catalogue import of thousands of rows is one set-based pass, not a trigger call per row).
-- Only products whose words or sale status changed are touched; a price change costs one
-- comparison per row.
--
-- A word leaves the vocabulary when no product on sale has it any more. Writers lock the
-- vocabulary rows they add or may remove (in word order, so two writers cannot deadlock within
-- one statement), and the check for "no product has it" runs after the lock, so a word another
-- transaction is adding a product with is never removed under it.
CREATE FUNCTION product_search_refresh() RETURNS trigger LANGUAGE plpgsql AS $$
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

-- No trigger on DELETE: products are never deleted once ordered (they are discontinued); a
-- deleted one's row goes with it (ON DELETE CASCADE) and its words merely stay in the
-- vocabulary, where a word no product has matches nothing.
CREATE TRIGGER product_search_after_insert AFTER INSERT ON products
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION product_search_refresh();
CREATE TRIGGER product_search_after_update AFTER UPDATE ON products
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION product_search_refresh();

-- The catalogue as it is.
INSERT INTO product_search (product_id, words)
SELECT p.id, search_words(p.name, p.brand) FROM products p WHERE NOT p.discontinued;
INSERT INTO search_vocabulary (word)
SELECT DISTINCT w FROM product_search ps, unnest(ps.words) w WHERE w !~ '[0-9]';
ANALYZE product_search, search_vocabulary;

-- Nothing searches names and brands by trigram any more; every product write kept them.
DROP INDEX products_name_trgm;
DROP INDEX products_brand_trgm;
