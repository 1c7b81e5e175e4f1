-- stock_outages_record, for a stock row written with nothing available.
CREATE OR REPLACE TRIGGER stock_outages_added AFTER INSERT ON stock
FOR EACH ROW WHEN (NEW.on_hand - NEW.reserved <= 0)
EXECUTE FUNCTION stock_outages_record();
