-- stock_outages_record, for a stock row whose available stock crossed zero, either way.
CREATE OR REPLACE TRIGGER stock_outages_changed AFTER UPDATE OF on_hand, reserved ON stock
FOR EACH ROW WHEN ((OLD.on_hand - OLD.reserved <= 0) <> (NEW.on_hand - NEW.reserved <= 0))
EXECUTE FUNCTION stock_outages_record();
