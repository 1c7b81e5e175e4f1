-- A name and brand as the words search matches: lower case, apostrophes dropped ("Busha
-- Browne's" -> busha, brownes), split on anything not a letter or digit, each word once, sorted.
-- The service splits a query the same way (ProductQueries.searchWords).
CREATE OR REPLACE FUNCTION search_words(p_name text, p_brand text) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN ARRAY(
    SELECT DISTINCT w
    FROM regexp_split_to_table(lower(translate(p_name || ' ' || p_brand, '''’', '')), '[^[:alnum:]]+') w
    WHERE w <> ''
    ORDER BY w);
