-- An author's own writing on recipes, never a moderator's hiding (posting_blocked).
CREATE OR REPLACE TRIGGER recipes_posting_blocked BEFORE INSERT OR UPDATE OF title, body_markdown, servings, store_id ON recipes
    FOR EACH ROW EXECUTE FUNCTION posting_blocked();
