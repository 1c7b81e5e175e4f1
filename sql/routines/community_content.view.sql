-- Every piece of community content a reader can report and a moderator can hide, as one
-- relation: its kind, id, store (whose manager moderates it; NULL: the chain's admin only),
-- author, when it was hidden, and an excerpt for the moderation page (a recipe's title, the
-- start of a comment or review). Reports and blocks read it (ModerationQueries).
CREATE OR REPLACE VIEW community_content AS
    SELECT 'recipe'::text AS kind, r.id, r.store_id, r.author_id, r.hidden_at, left(r.title, 200) AS excerpt FROM recipes r
    UNION ALL
    SELECT 'comment', c.id, c.store_id, c.author_id, c.hidden_at, left(c.body_markdown, 200) FROM comments c
    UNION ALL
    SELECT 'review', v.id, v.store_id, v.author_id, v.hidden_at, left(v.rating || '/5 ' || v.body_markdown, 200) FROM product_reviews v;
