-- `favourite.back_in_stock` when what can be ordered goes from none to some
-- (favourite_back_in_stock_outbox), at COMMIT; favourite_in_stock_outbox.trigger.sql is the same
-- for a stock row made with some. A constraint trigger has no CREATE OR REPLACE.
DROP TRIGGER IF EXISTS favourite_back_in_stock_outbox ON stock;
CREATE CONSTRAINT TRIGGER favourite_back_in_stock_outbox AFTER UPDATE ON stock
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
WHEN (OLD.on_hand - OLD.reserved <= 0 AND NEW.on_hand - NEW.reserved > 0)
EXECUTE FUNCTION favourite_back_in_stock_outbox();
