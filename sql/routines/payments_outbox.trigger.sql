-- `payment.succeeded` for every payment recorded (payments_outbox), at COMMIT, as the order
-- events are (order_events_outbox.trigger.sql). A constraint trigger has no CREATE OR REPLACE.
DROP TRIGGER IF EXISTS payments_outbox ON payments;
CREATE CONSTRAINT TRIGGER payments_outbox AFTER INSERT ON payments
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION payments_outbox();
