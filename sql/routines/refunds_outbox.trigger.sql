-- A refund's message (refunds_outbox), written at COMMIT like the order events. A constraint
-- trigger has no CREATE OR REPLACE.
DROP TRIGGER IF EXISTS refunds_outbox ON refunds;
CREATE CONSTRAINT TRIGGER refunds_outbox AFTER INSERT ON refunds
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION refunds_outbox();
