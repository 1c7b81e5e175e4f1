-- The catalogue words one query word matches: `words` all of them, `exact` the word itself
-- (weight 1), `near` the next best (0.7), the rest 0.4; `single` is the weight when every match
-- weighs the same (then no product needs looking at to know it). All NULL when nothing matches:
-- the search finds nothing.
--
-- By the rules shoppers know from Meilisearch and Typesense (issue 45). Trigram similarity at
-- 0.4, as before, was too loose: "rice" shares trigrams with "ice", "spice" and "ripe", "wine"
-- with "margarine" and "brine", "milk" with "mix", "minced" and "flour".
--   1. The word itself and the words it begins ("mozz" -> mozzarella; "rice" begins no
--      "price"): the word 1, the shortest of the others near ("butte": butter before
--      buttermilk), the rest 0.4. At most 32, shortest first, so a one- or two-letter word
--      cannot fan out over the whole vocabulary.
--   2. Only when no catalogue word is or begins with the query word (Typesense's typo
--      threshold: a word the catalogue has is what the shopper meant; "bread" finds no
--      "breast", whose beginning "breas" is one letter off), typos: none on a word under 5
--      letters ("mlik" finds nothing), one on 5 to 8, two on 9 or more. An edit is a letter
--      changed, added or dropped, or (once) two neighbours swapped ("chedadr" is one from
--      cheddar); letters doubled or undoubled count as one together ("mozarela" is one from
--      mozzarella). Counted against the whole catalogue word, or against its beginning as long
--      as the query word or up to the typos longer (Meilisearch's prefix with typos: "spagett"
--      is one from "spaghett", the beginning of spaghetti); never a shorter beginning, so
--      "chdar" is not "char", the beginning of Charmin. "chese" is two edits from "chedd", so
--      Cheddar alone is not cheese. The fewest edits are near, a whole word before a
--      beginning; the rest 0.4.
--      The candidates are the 64 words nearest by trigrams (the GiST index's KNN scan) and the
--      words the query word with a swap undone is or begins (the "C" index), so edit distances
--      are computed over a few vocabulary words, never per product. A word over 64 letters gets
--      no typos (levenshtein refuses 255, and no real word is so long).
--   3. A word with a digit (a size, a code) matches itself only, split as the product side
--      splits it: "500g" does not find "400g".
--
-- The row estimates stay small on purpose (series of constant bounds, not of lengths): the
-- planner inlines this into the search statement, and an estimate in the millions there
-- switched JIT compilation on, 450 ms a search.
CREATE OR REPLACE FUNCTION search_word_matches(p_word text)
RETURNS TABLE (words text[], exact text[], near text[], single double precision)
LANGUAGE sql STABLE PARALLEL SAFE
BEGIN ATOMIC
    WITH begun AS (
        -- A range of the "C" ordered index (migration 046): the word, then the words it begins.
        SELECT sv.word
        FROM search_vocabulary sv
        WHERE p_word !~ '[0-9]'
          AND sv.word COLLATE "C" >= p_word
          AND sv.word COLLATE "C" < p_word || chr(1114111)
        ORDER BY length(sv.word), sv.word
        LIMIT 32
    ), rule AS (
        -- The typos allowed; with runs of a letter squeezed to one, as many as the shorter word
        -- allows ("zzzzzzzzzz" squeezed is "z", which allows none).
        SELECT t.typos, s.squeezed,
               least(t.typos, CASE WHEN length(s.squeezed) < 5 THEN 0 WHEN length(s.squeezed) <= 8 THEN 1 ELSE 2 END) AS squeezed_typos
        FROM (SELECT CASE WHEN p_word ~ '[0-9]' OR length(p_word) < 5 OR length(p_word) > 64 THEN 0
                          WHEN length(p_word) <= 8 THEN 1
                          ELSE 2 END AS typos) t,
             (SELECT regexp_replace(p_word, '(.)\1+', '\1', 'g') AS squeezed) s
    ), swapped AS (
        -- The query word with two neighbouring letters swapped, each way it can be.
        SELECT overlay(p_word PLACING substr(p_word, i + 1, 1) || substr(p_word, i, 1) FROM i FOR 2) AS word
        FROM rule r, generate_series(1, 63) i
        WHERE r.typos > 0 AND i < length(p_word) AND substr(p_word, i, 1) <> substr(p_word, i + 1, 1)
    ), typo AS (
        -- cost: twice the edits, plus one for a beginning rather than the whole word.
        SELECT c.word, min(2 * a.edits + a.beginning::int) AS cost
        FROM rule r
        CROSS JOIN LATERAL (
            SELECT k.word, regexp_replace(k.word, '(.)\1+', '\1', 'g') AS squeezed
            FROM (
                SELECT sv.word
                FROM search_vocabulary sv
                WHERE r.typos > 0 AND NOT EXISTS (SELECT FROM begun)
                ORDER BY p_word <<-> sv.word
                LIMIT 64
            ) k
            UNION
            -- A swap in a short word breaks most of its trigrams ("palce" shares few with
            -- place), so the words the query with a swap undone is or begins come too.
            SELECT k.word, regexp_replace(k.word, '(.)\1+', '\1', 'g')
            FROM swapped s
            CROSS JOIN LATERAL (
                SELECT sv.word
                FROM search_vocabulary sv
                WHERE NOT EXISTS (SELECT FROM begun)
                  AND sv.word COLLATE "C" >= s.word
                  AND sv.word COLLATE "C" < s.word || chr(1114111)
                ORDER BY sv.word COLLATE "C"
                LIMIT 4
            ) k
        ) c
        CROSS JOIN LATERAL (
            -- As typed, against the whole word (its length within the typos of the query word's)
            -- or its beginning as long as the query word or up to the typos longer.
            SELECT e.edits, n.l < length(c.word) AS beginning
            FROM generate_series(-2, 2) o
            CROSS JOIN LATERAL (SELECT length(p_word) + o AS l) n
            CROSS JOIN LATERAL (SELECT levenshtein_less_equal(p_word, left(c.word, n.l), r.typos + 1) AS plain) d
            CROSS JOIN LATERAL (
                -- Levenshtein counts a swap as two: one more than allowed may be a swap and the rest.
                SELECT CASE WHEN d.plain = r.typos + 1
                            THEN least(d.plain, 1 + (SELECT min(levenshtein_less_equal(s.word, left(c.word, n.l), r.typos - 1)) FROM swapped s))
                            ELSE d.plain END AS edits
            ) e
            WHERE abs(o) <= r.typos AND n.l BETWEEN 1 AND length(c.word) AND (o >= 0 OR n.l = length(c.word))
            UNION ALL
            -- Letters doubled or not, however many, count as one typo together: "mozarela" is
            -- mozzarella with both doubles missed. Runs of a letter squeezed to one on both sides,
            -- then the typos left allowed.
            SELECT 1 + q.edits, n.l < length(c.squeezed)
            FROM generate_series(-1, 1) o
            CROSS JOIN LATERAL (SELECT length(r.squeezed) + o AS l) n
            CROSS JOIN LATERAL (SELECT levenshtein_less_equal(r.squeezed, left(c.squeezed, n.l), r.squeezed_typos - 1) AS edits) q
            WHERE (r.squeezed <> p_word OR c.squeezed <> c.word)
              AND abs(o) < r.squeezed_typos AND n.l BETWEEN 1 AND length(c.squeezed) AND (o >= 0 OR n.l = length(c.squeezed))
              AND q.edits < r.squeezed_typos
        ) a
        WHERE a.edits <= r.typos
        GROUP BY c.word
    ), matched AS (
        SELECT w AS word, 1::double precision AS weight
        FROM unnest(search_words(p_word, '')) w
        WHERE p_word ~ '[0-9]'
        UNION ALL
        SELECT b.word, CASE WHEN b.word = p_word THEN 1
                            WHEN length(b.word) = min(length(b.word)) FILTER (WHERE b.word <> p_word) OVER () THEN 0.7
                            ELSE 0.4 END::double precision
        FROM begun b
        UNION ALL
        SELECT t.word, CASE WHEN t.cost = min(t.cost) OVER () THEN 0.7 ELSE 0.4 END::double precision
        FROM typo t
    )
    SELECT array_agg(m.word),
           array_agg(m.word) FILTER (WHERE m.weight = 1),
           array_agg(m.word) FILTER (WHERE m.weight = 0.7),
           CASE WHEN min(m.weight) = max(m.weight) THEN min(m.weight) END
    FROM matched m;
END;
