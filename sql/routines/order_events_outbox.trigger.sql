-- Every order history entry writes its event (order_events_outbox), in the transaction that
-- makes the change, so no code path can change an order without its event and a rolled-back
-- change leaves none. DEFERRED: the event is written at COMMIT, after every other statement.
-- A constraint trigger has no CREATE OR REPLACE, so this file drops it and makes it again.
DROP TRIGGER IF EXISTS order_events_outbox ON order_events;
CREATE CONSTRAINT TRIGGER order_events_outbox AFTER INSERT ON order_events
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION order_events_outbox();
