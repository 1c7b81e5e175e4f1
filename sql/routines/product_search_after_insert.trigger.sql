-- product_search and search_vocabulary follow every product written, once per statement
-- (product_search_refresh); the update's twin is product_search_after_update.trigger.sql.
-- No trigger on DELETE: products are never deleted once ordered (they are discontinued); a
-- deleted one's row goes with it (ON DELETE CASCADE) and its words merely stay in the
-- vocabulary, where a word no product has matches nothing.
CREATE OR REPLACE TRIGGER product_search_after_insert AFTER INSERT ON products
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION product_search_refresh();
