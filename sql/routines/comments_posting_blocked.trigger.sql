-- An author's own writing on comments, never a moderator's hiding (posting_blocked).
CREATE OR REPLACE TRIGGER comments_posting_blocked BEFORE INSERT OR UPDATE OF body_markdown ON comments
    FOR EACH ROW EXECUTE FUNCTION posting_blocked();
