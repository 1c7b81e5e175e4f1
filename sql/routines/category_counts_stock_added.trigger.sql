-- category_counts_stock, for stock rows added.
CREATE OR REPLACE TRIGGER category_counts_stock_added AFTER INSERT ON stock
REFERENCING NEW TABLE AS changed FOR EACH STATEMENT
EXECUTE FUNCTION category_counts_stock();
