-- product_search and search_vocabulary follow every product changed, once per statement
-- (product_search_refresh); products are never deleted (see product_search_after_insert).
CREATE OR REPLACE TRIGGER product_search_after_update AFTER UPDATE ON products
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION product_search_refresh();
