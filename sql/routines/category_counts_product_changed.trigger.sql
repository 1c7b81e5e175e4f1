-- category_counts_product_changed, only when what counts changed (a price or a rating does not).
CREATE OR REPLACE TRIGGER category_counts_product_changed AFTER UPDATE OF category, discontinued ON products
FOR EACH ROW WHEN (OLD.category IS DISTINCT FROM NEW.category OR OLD.discontinued IS DISTINCT FROM NEW.discontinued)
EXECUTE FUNCTION category_counts_product_changed();
