-- Every price a store has set of its own, with when (store_price_history_record).
CREATE OR REPLACE TRIGGER store_price_history AFTER INSERT OR UPDATE OR DELETE ON store_prices
    FOR EACH ROW EXECUTE FUNCTION store_price_history_record();
