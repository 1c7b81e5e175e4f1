-- `payment.succeeded`: a payment recorded, at the desk or by the provider, with the order as it
-- then stands (payments_outbox.trigger.sql, at commit).
CREATE OR REPLACE FUNCTION payments_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM emit_event(NEW.store_id, 'payment.succeeded', NEW.order_id, jsonb_build_object(
        'payment', jsonb_build_object(
            'id', NEW.id, 'orderId', NEW.order_id, 'method', NEW.method,
            'amount', jsonb_build_object('amount', NEW.amount, 'currency', NEW.currency),
            'recordedAt', api_time(NEW.created_at)),
        'order', order_summary_json(NEW.order_id)));
    RETURN NULL;
END $$;
