-- An author's own writing on product_reviews, never a moderator's hiding (posting_blocked).
CREATE OR REPLACE TRIGGER product_reviews_posting_blocked BEFORE INSERT OR UPDATE OF rating, body_markdown ON product_reviews
    FOR EACH ROW EXECUTE FUNCTION posting_blocked();
