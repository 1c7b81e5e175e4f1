-- 013_events: the transactional outbox, webhook endpoints and their deliveries (issue 14).
--
-- Every state change a partner or a screen follows writes its event in the transaction that
-- makes the change, by triggers on the tables that record it (`order_events`, `payments`,
-- `stock`): no code path can change an order without its event, and a rolled-back change
-- leaves none. The triggers are DEFERRED constraint triggers, so events are written at COMMIT,
-- after every other statement: the store's sequence counter is then always the last lock a
-- transaction takes (no deadlock with stock, order or slot locks) and is held for the commit
-- alone. Because the counter row is locked until commit, a store's events commit in sequence
-- order: a reader that has seen sequence n has seen everything before it.

-- The last sequence number given to an event of each store.
CREATE TABLE event_sequences (
    store_id  uuid PRIMARY KEY REFERENCES stores (id),
    last      bigint NOT NULL CHECK (last > 0)
);

CREATE TABLE events (
    id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    store_id     uuid NOT NULL REFERENCES stores (id),
    -- Per store, from 1, without gaps: the SSE `id:` and what `Last-Event-ID` resumes from.
    sequence     bigint NOT NULL CHECK (sequence > 0),
    type         text NOT NULL CHECK (type ~ '^[a-z_]+\.[a-z_]+$'),
    order_id     uuid,
    occurred_at  timestamptz NOT NULL DEFAULT now(),
    -- In the API's own JSON shapes (an order is an `OrderSummary`).
    data         jsonb NOT NULL,
    UNIQUE (store_id, sequence),
    FOREIGN KEY (store_id, order_id) REFERENCES orders (store_id, id)
);

CREATE INDEX events_order ON events (order_id, sequence) WHERE order_id IS NOT NULL;
CREATE INDEX events_order_type ON events (order_id, type, occurred_at) WHERE order_id IS NOT NULL;

-- Where a store (store_id) or the whole chain (NULL) wants its events sent.
CREATE TABLE webhook_endpoints (
    id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    store_id         uuid REFERENCES stores (id),
    url              text NOT NULL CHECK (url ~ '^https?://[^\s]+$' AND length(url) <= 2000),
    description      text NOT NULL DEFAULT '' CHECK (length(description) <= 500),
    -- Empty: every type.
    event_types      text[] NOT NULL DEFAULT '{}',
    -- `whsec_` + base64 of 32 random bytes; the HMAC key is the decoded bytes.
    secret           text NOT NULL CHECK (secret ~ '^whsec_'),
    enabled          boolean NOT NULL DEFAULT true,
    -- Why the dispatcher turned it off (NULL when a manager did, or while enabled).
    disabled_reason  text,
    -- The first failure since its last success: an endpoint failing for days is disabled.
    failing_since    timestamptz,
    created_by       uuid REFERENCES users (id),
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX webhook_endpoints_enabled ON webhook_endpoints (store_id) WHERE enabled;

-- One event to one endpoint. `pending` rows are due at `next_attempt_at`; a dispatcher claims
-- a row by moving `next_attempt_at` past the time a send can take (a lease, committed before
-- sending), so a crash between sending and recording sends again after the lease, with the
-- same `webhook-id`: at least once.
CREATE TABLE webhook_deliveries (
    id                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    store_id            uuid NOT NULL REFERENCES stores (id),
    endpoint_id         uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    event_id            uuid NOT NULL REFERENCES events (id),
    status              text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
    attempts            integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    next_attempt_at     timestamptz NOT NULL DEFAULT now(),
    last_attempt_at     timestamptz,
    last_response_code  integer,
    last_error          text,
    created_at          timestamptz NOT NULL DEFAULT now(),
    UNIQUE (endpoint_id, event_id)
);

CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, created_at DESC, id DESC);

-- A timestamp as the API writes it: ISO 8601, UTC, whole seconds.
CREATE FUNCTION api_time(t timestamptz) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
$$;

-- An order as the API's `OrderSummary` (the board's and the customer's list item).
CREATE FUNCTION order_summary_json(p_order uuid) RETURNS jsonb LANGUAGE sql STABLE AS $$
    SELECT jsonb_strip_nulls(jsonb_build_object(
        'id', o.id,
        'number', o.number,
        'storeId', o.store_id,
        'customerName', u.name,
        'status', o.status,
        'progress', CASE o.status WHEN 'pending' THEN 0.25 WHEN 'packaged' THEN 0.5 WHEN 'delivering' THEN 0.75
                                  WHEN 'completed' THEN 1 ELSE 0 END,
        'paymentMethod', o.payment_method,
        'paymentStatus', o.payment_status,
        'total', jsonb_build_object('amount', o.total_amount, 'currency', o.currency),
        'itemCount', (SELECT coalesce(sum(l.quantity), 0) FROM order_lines l WHERE l.order_id = o.id),
        'placedAt', api_time(o.created_at),
        'pickupSlot', CASE WHEN o.pickup_slot_start IS NOT NULL THEN
            jsonb_build_object('start', api_time(o.pickup_slot_start), 'end', api_time(o.pickup_slot_end)) END))
    FROM orders o JOIN users u ON u.id = o.customer_id
    WHERE o.id = p_order
$$;

-- The envelope every event is sent in, by webhook and by SSE (Standard Webhooks' shape:
-- type, timestamp, data; plus the id, the store and its sequence).
CREATE FUNCTION event_json(e events) RETURNS text LANGUAGE sql STABLE AS $$
    SELECT jsonb_build_object(
        'id', e.id, 'type', e.type, 'timestamp', api_time(e.occurred_at),
        'storeId', e.store_id, 'sequence', e.sequence, 'data', e.data)::text
$$;

-- Writes one event: the store's next sequence number, the row, a delivery for every enabled
-- endpoint that wants it, and a NOTIFY (sent at commit) that wakes every instance's streams
-- and dispatcher. Called only from the deferred triggers below, so at commit.
CREATE FUNCTION emit_event(p_store uuid, p_type text, p_order uuid, p_data jsonb) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    next_sequence bigint;
    new_id uuid := gen_random_uuid();
BEGIN
    INSERT INTO event_sequences AS s (store_id, last) VALUES (p_store, 1)
    ON CONFLICT (store_id) DO UPDATE SET last = s.last + 1
    RETURNING s.last INTO next_sequence;
    INSERT INTO events (id, store_id, sequence, type, order_id, data)
    VALUES (new_id, p_store, next_sequence, p_type, p_order, p_data);
    INSERT INTO webhook_deliveries (store_id, endpoint_id, event_id)
    SELECT p_store, w.id, new_id
    FROM webhook_endpoints w
    WHERE w.enabled AND (w.store_id IS NULL OR w.store_id = p_store)
      AND (cardinality(w.event_types) = 0 OR p_type = ANY (w.event_types));
    PERFORM pg_notify('fulfilment_events', p_store::text || ' ' || next_sequence::text);
END $$;

-- An order's history entry is its event. A row whose `from_status` equals its `to_status` is
-- the ready message sent again by staff.
CREATE FUNCTION order_events_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    event_type text;
    payload jsonb := jsonb_build_object('order', order_summary_json(NEW.order_id));
BEGIN
    IF NEW.from_status IS NOT DISTINCT FROM NEW.to_status THEN
        event_type := 'order.ready_for_pickup';
        payload := payload || jsonb_build_object('repeated', true);
    ELSE
        event_type := CASE NEW.to_status
            WHEN 'pending' THEN 'order.placed'
            WHEN 'packaged' THEN 'order.ready_for_pickup'
            WHEN 'delivering' THEN 'order.at_collection_point'
            WHEN 'completed' THEN 'order.collected'
            WHEN 'cancelled' THEN 'order.cancelled'
        END;
        IF NEW.to_status = 'cancelled' THEN
            payload := payload || jsonb_build_object('reason', NEW.reason, 'byStaff', NEW.actor_id IS NOT NULL
                AND EXISTS (SELECT 1 FROM users u WHERE u.id = NEW.actor_id AND u.role <> 'customer'));
        END IF;
    END IF;
    PERFORM emit_event(NEW.store_id, event_type, NEW.order_id, jsonb_strip_nulls(payload));
    RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER order_events_outbox AFTER INSERT ON order_events
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION order_events_outbox();

CREATE FUNCTION payments_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM emit_event(NEW.store_id, 'payment.succeeded', NEW.order_id, jsonb_build_object(
        'payment', jsonb_build_object(
            'id', NEW.id, 'orderId', NEW.order_id, 'method', NEW.method,
            'amount', jsonb_build_object('amount', NEW.amount, 'currency', NEW.currency),
            'recordedAt', api_time(NEW.created_at)),
        'order', order_summary_json(NEW.order_id)));
    RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER payments_outbox AFTER INSERT ON payments
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION payments_outbox();

-- `stock.low`: on hand fell to the reorder point (the reorder report's rule) from above it.
CREATE FUNCTION stock_low_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM emit_event(NEW.store_id, 'stock.low', NULL, jsonb_build_object(
        'product', (SELECT jsonb_build_object('id', p.id, 'sku', p.sku, 'name', p.name) FROM products p WHERE p.id = NEW.product_id),
        'onHand', NEW.on_hand, 'reserved', NEW.reserved, 'available', NEW.on_hand - NEW.reserved,
        'minSupply', NEW.min_supply));
    RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER stock_low_outbox AFTER UPDATE ON stock
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
WHEN (OLD.on_hand > OLD.min_supply AND NEW.on_hand <= NEW.min_supply)
EXECUTE FUNCTION stock_low_outbox();

-- `favourite.back_in_stock`: what a customer can order went from none to some at the store
-- they shop at; one event per customer who favourited the product.
CREATE FUNCTION favourite_back_in_stock_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    fan record;
    product jsonb := (SELECT jsonb_build_object('id', p.id, 'sku', p.sku, 'name', p.name) FROM products p
                      WHERE p.id = NEW.product_id AND NOT p.discontinued);
BEGIN
    IF product IS NULL THEN
        RETURN NULL;
    END IF;
    FOR fan IN
        SELECT f.user_id FROM favourites f JOIN customer_stores c ON c.user_id = f.user_id
        WHERE f.product_id = NEW.product_id AND c.store_id = NEW.store_id
        ORDER BY f.user_id
    LOOP
        PERFORM emit_event(NEW.store_id, 'favourite.back_in_stock', NULL, jsonb_build_object(
            'customerId', fan.user_id, 'product', product, 'available', NEW.on_hand - NEW.reserved));
    END LOOP;
    RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER favourite_back_in_stock_outbox AFTER UPDATE ON stock
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
WHEN (OLD.on_hand - OLD.reserved <= 0 AND NEW.on_hand - NEW.reserved > 0)
EXECUTE FUNCTION favourite_back_in_stock_outbox();

CREATE CONSTRAINT TRIGGER favourite_in_stock_outbox AFTER INSERT ON stock
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
WHEN (NEW.on_hand - NEW.reserved > 0)
EXECUTE FUNCTION favourite_back_in_stock_outbox();
