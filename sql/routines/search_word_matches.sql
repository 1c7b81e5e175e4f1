-- The catalogue words one query word matches: `words` all of them, `exact` the word itself
-- (weight 1), `near` the best other match, the likeliest correction of a typo (0.7; ties all
-- count), the rest 0.4; `single` is the weight when every match weighs the same (then no
-- product needs looking at to know it). All NULL when nothing matches: the search finds nothing.
--
-- Matches by word_similarity(query word, catalogue word) at the 0.4 floor search has always
-- used: "mozarela" - mozzarella 0.55, "lasko" - lasco 0.5, "chese" - cheese 0.63 (near) and
-- cheddar 0.5 (0.4); a prefix counts ("mozz" - mozzarella 0.8). At most the 20 nearest words,
-- so a short or vague word cannot fan out over the whole vocabulary.
CREATE OR REPLACE FUNCTION search_word_matches(p_word text)
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
