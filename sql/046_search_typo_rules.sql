-- 046_search_typo_rules: search matches a query word to catalogue words by the rules shoppers
-- know from Meilisearch and Typesense, not by trigram similarity alone (issue 45: "rice" found
-- Ice Cream, Spice Bun and Ripe Plantain; "wine" found margarine). The rules are in
-- search_word_matches (routines); this migration adds what they need.

-- Edit distance (levenshtein_less_equal, in C): a typo is counted in letters changed, added,
-- dropped or swapped, not guessed from shared trigrams. Part of contrib like pg_trgm, and
-- trusted, so the service's own role may create it.
CREATE EXTENSION IF NOT EXISTS fuzzystrmatch;

-- The words a query word begins ("mozz" -> mozzarella, "rice" -> rice): a range of this index,
-- whatever the database's collation (in "C" order the words beginning with a prefix lie
-- together, from the prefix itself up to the prefix followed by the last code point). The
-- trigram index cannot answer a one- or two-letter prefix without reading most of itself.
CREATE INDEX search_vocabulary_prefix ON search_vocabulary (word COLLATE "C");
