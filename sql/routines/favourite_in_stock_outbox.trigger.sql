-- `favourite.back_in_stock` for a stock row made with something to order (the update's case is
-- favourite_back_in_stock_outbox.trigger.sql). A constraint trigger has no CREATE OR REPLACE.
DROP TRIGGER IF EXISTS favourite_in_stock_outbox ON stock;
CREATE CONSTRAINT TRIGGER favourite_in_stock_outbox AFTER INSERT ON stock
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
WHEN (NEW.on_hand - NEW.reserved > 0)
EXECUTE FUNCTION favourite_back_in_stock_outbox();
