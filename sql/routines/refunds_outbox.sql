-- "Refund made": the customer is told the amount and how it was paid back, at the commit of the
-- refund's row (refunds_outbox.trigger.sql).
CREATE OR REPLACE FUNCTION refunds_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM queue_message(NEW.store_id, NEW.order_id, (SELECT o.customer_id FROM orders o WHERE o.id = NEW.order_id),
        'refund_made', NEW.id::text,
        jsonb_build_object('amount', NEW.amount, 'currency', NEW.currency, 'method', NEW.method));
    RETURN NULL;
END $$;
