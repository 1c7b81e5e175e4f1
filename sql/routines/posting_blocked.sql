-- Refuses a post (a recipe, a comment, a review: written or rewritten by its author) at a store
-- where its author is blocked, or anywhere when the chain's admin blocked them: SQLSTATE FC000,
-- message posting_blocked, nothing written. In the database, so every instance and every way
-- of writing content meets it; a moderator hiding the post is not a post and passes.
CREATE OR REPLACE FUNCTION posting_blocked() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.author_id IS NOT NULL AND EXISTS (
        SELECT 1 FROM posting_blocks b
         WHERE b.user_id = NEW.author_id AND (b.store_id IS NULL OR b.store_id = NEW.store_id)) THEN
        RAISE EXCEPTION USING ERRCODE = 'FC000', MESSAGE = 'posting_blocked';
    END IF;
    RETURN NEW;
END
$$;
