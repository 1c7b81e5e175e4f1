-- Every catalogue price a product has had, with when (catalogue_price_history_record).
CREATE OR REPLACE TRIGGER catalogue_price_history AFTER INSERT OR UPDATE OF price_amount ON products
    FOR EACH ROW EXECUTE FUNCTION catalogue_price_history_record();
