-- category_counts_stock, for stock rows removed.
CREATE OR REPLACE TRIGGER category_counts_stock_removed AFTER DELETE ON stock
REFERENCING OLD TABLE AS changed FOR EACH STATEMENT
EXECUTE FUNCTION category_counts_stock();
