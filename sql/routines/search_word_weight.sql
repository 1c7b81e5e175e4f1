-- How well a product's words answer one query word (given search_word_matches' row for it):
-- the weight of its best match. Inlined by the planner into the ranking expression.
CREATE OR REPLACE FUNCTION search_word_weight(p_words text[], p_exact text[], p_near text[], p_single double precision)
RETURNS double precision LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN COALESCE(p_single, CASE WHEN p_words && p_exact THEN 1::float8 WHEN p_words && p_near THEN 0.7::float8 ELSE 0.4::float8 END);
