-- `stock.low` when on hand falls to the reorder point from above it (stock_low_outbox), at
-- COMMIT. A constraint trigger has no CREATE OR REPLACE.
DROP TRIGGER IF EXISTS stock_low_outbox ON stock;
CREATE CONSTRAINT TRIGGER stock_low_outbox AFTER UPDATE ON stock
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
WHEN (OLD.on_hand > OLD.min_supply AND NEW.on_hand <= NEW.min_supply)
EXECUTE FUNCTION stock_low_outbox();
