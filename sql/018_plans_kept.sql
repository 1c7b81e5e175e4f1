-- The hottest reads as PL/pgSQL functions, so PostgreSQL keeps their plans (issue 15).
--
-- PostgresNIO sends every statement unnamed, so PostgreSQL parses and plans it at every call;
-- and a LANGUAGE sql function that is not inlined is planned again at every call too. Measured
-- with pg_stat_statements during checkout-bench's HTTP phase (BENCH_STATEMENTS=1), planning cost
-- more than running for most of a checkout's reads: checkout's context 1.2 ms to plan against
-- 0.36 ms to run, the order's event payload (order_summary_json, in every order event's trigger)
-- 0.76 ms, the cart read 0.48 ms, the cart line 0.29 ms. A PL/pgSQL function's statements are
-- planned once per connection and kept; what the service sends is a call, cheap to plan.

-- A store's calendar as one row of 11 columns: its settings, then its opening ranges and closures
-- as arrays (CalendarQueries.calendar(in:from:) decodes them). No row: the store has no calendar.
CREATE FUNCTION store_calendar(p_store uuid)
RETURNS TABLE (time_zone text, slot_minutes integer, capacity integer, lead_minutes integer, horizon_days integer,
               grace_minutes integer, weekdays integer[], opens integer[], closes integer[], closure_days integer[],
               closure_reasons text[])
LANGUAGE plpgsql STABLE ROWS 1 AS $$
BEGIN
    RETURN QUERY
    SELECT k.time_zone, k.slot_minutes, k.capacity, k.lead_minutes, k.horizon_days, k.grace_minutes,
           ARRAY(SELECT h.weekday FROM store_opening_hours h WHERE h.store_id = k.store_id ORDER BY h.weekday, h.opens_minute),
           ARRAY(SELECT h.opens_minute FROM store_opening_hours h WHERE h.store_id = k.store_id ORDER BY h.weekday, h.opens_minute),
           ARRAY(SELECT h.closes_minute FROM store_opening_hours h WHERE h.store_id = k.store_id ORDER BY h.weekday, h.opens_minute),
           ARRAY(SELECT (d.date - DATE '1970-01-01')::int4 FROM store_closures d WHERE d.store_id = k.store_id ORDER BY d.date),
           ARRAY(SELECT d.reason FROM store_closures d WHERE d.store_id = k.store_id ORDER BY d.date)
    FROM store_calendars k WHERE k.store_id = p_store;
END
$$;

-- What checkout needs before it places an order (CheckoutQueries.context): the customer's name,
-- the cart's store (token number, currency, when a token without a slot expires) and calendar,
-- and any order this idempotency key already made. One row when the customer exists.
CREATE FUNCTION checkout_context(p_customer uuid, p_key text)
RETURNS TABLE (customer_name text, store_id uuid, token_number integer, currency text, window_end bigint,
               earlier_id uuid, earlier_hash bytea, time_zone text, slot_minutes integer, capacity integer,
               lead_minutes integer, horizon_days integer, grace_minutes integer, weekdays integer[], opens integer[],
               closes integer[], closure_days integer[], closure_reasons text[])
LANGUAGE plpgsql STABLE ROWS 1 AS $$
BEGIN
    RETURN QUERY
    SELECT u.name, ct.store_id, s.token_number, s.currency::text, extract(epoch FROM now() + s.collection_window)::int8,
           e.id, e.request_hash, k.*
    FROM users u
    LEFT JOIN carts ct ON ct.customer_id = u.id
    LEFT JOIN stores s ON s.id = ct.store_id
    LEFT JOIN LATERAL store_calendar(ct.store_id) k ON true
    LEFT JOIN orders e ON e.customer_id = u.id AND e.idempotency_key = p_key
    WHERE u.id = p_customer;
END
$$;

-- The store a customer's cart is at: the cart's own, or else the store they chose for browsing
-- (NULL: neither). One rule for reading the cart and for adding to it.
CREATE FUNCTION cart_store(p_customer uuid) RETURNS uuid LANGUAGE sql STABLE AS $$
    SELECT coalesce(
        (SELECT c.store_id FROM carts c WHERE c.customer_id = p_customer),
        (SELECT cs.store_id FROM customer_stores cs WHERE cs.user_id = p_customer))
$$;

-- A customer's cart (CartQueries.cart): the cart's store, or else the store they chose for
-- browsing; then one row per line priced and checked against that store's stock now, or one row
-- of NULL lines for an empty cart.
CREATE FUNCTION cart_view(p_customer uuid)
RETURNS TABLE (store_id uuid, currency text, product_id uuid, name text, price_amount bigint, quantity integer,
               available integer, discontinued boolean)
LANGUAGE plpgsql STABLE AS $$
BEGIN
    RETURN QUERY
    WITH store AS (
        SELECT s.id, s.currency::text AS currency FROM stores s WHERE s.id = cart_store(p_customer)
    )
    SELECT store.id, store.currency, l.product_id, l.name, l.price_amount, l.quantity, l.available, l.discontinued
    FROM (SELECT 1) AS one
    LEFT JOIN store ON true
    LEFT JOIN LATERAL (
        SELECT i.product_id, p.name, p.price_amount, i.quantity, coalesce(st.on_hand - st.reserved, 0) AS available,
               p.discontinued, i.added_at
        FROM cart_items i
        JOIN products p ON p.id = i.product_id
        LEFT JOIN stock st ON st.store_id = store.id AND st.product_id = i.product_id
        WHERE i.customer_id = p_customer
    ) AS l ON true
    ORDER BY l.added_at, l.product_id;
END
$$;

-- Sets a cart line (CartQueries.setQuantity): the cart row is made at the chosen store or
-- touched, and the line written, only for a product that exists and is on sale; quantity 0
-- removes the line. A NULL customer (a caller the service will refuse) writes nothing. Returns
-- whether the product is discontinued (NULL: no such product) and whether the line was written.
CREATE FUNCTION set_cart_line(p_customer uuid, p_product uuid, p_quantity integer)
RETURNS TABLE (discontinued boolean, written boolean) LANGUAGE plpgsql ROWS 1 AS $$
DECLARE
    v_discontinued boolean;
    v_store uuid;
BEGIN
    SELECT p.discontinued INTO v_discontinued FROM products p WHERE p.id = p_product;
    IF p_customer IS NULL THEN
        RETURN QUERY SELECT v_discontinued, false;
        RETURN;
    END IF;
    IF p_quantity = 0 THEN
        DELETE FROM cart_items i WHERE i.customer_id = p_customer AND i.product_id = p_product;
        RETURN QUERY SELECT CASE WHEN v_discontinued IS NOT NULL THEN false END, true;
        RETURN;
    END IF;
    IF v_discontinued IS DISTINCT FROM false THEN
        RETURN QUERY SELECT v_discontinued, false;
        RETURN;
    END IF;
    v_store := cart_store(p_customer);
    IF v_store IS NULL THEN
        RETURN QUERY SELECT false, false;
        RETURN;
    END IF;
    INSERT INTO carts AS c (customer_id, store_id) VALUES (p_customer, v_store)
    ON CONFLICT (customer_id) DO UPDATE SET updated_at = now();
    INSERT INTO cart_items AS i (customer_id, product_id, quantity) VALUES (p_customer, p_product, p_quantity)
    ON CONFLICT (customer_id, product_id) DO UPDATE SET quantity = EXCLUDED.quantity;
    RETURN QUERY SELECT false, true;
END
$$;

-- The order's summary in every order event (migration 013), the same JSON, with its plan kept.
CREATE OR REPLACE FUNCTION order_summary_json(p_order uuid) RETURNS jsonb LANGUAGE plpgsql STABLE AS $$
BEGIN
    RETURN (
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
        WHERE o.id = p_order);
END
$$;

-- The webhook dispatcher's claim (WebhookDeliveryQueries.claim): up to p_limit due deliveries of
-- enabled endpoints, leased for p_lease_seconds (attempts counted), with what sending needs. Every
-- instance's dispatcher runs it whenever an event is written, so its plan is worth keeping too
-- (measured: planned at 0.6 ms, run at 0.005 ms, some 130 times a second during checkout-bench).
CREATE FUNCTION claim_webhook_deliveries(p_limit integer, p_lease_seconds double precision)
RETURNS TABLE (id uuid, endpoint_id uuid, event_id uuid, attempts integer, url text, secret text, body text)
LANGUAGE plpgsql AS $$
BEGIN
    RETURN QUERY
    UPDATE webhook_deliveries d
    SET next_attempt_at = now() + p_lease_seconds * interval '1 second', attempts = d.attempts + 1,
        last_attempt_at = now()
    FROM webhook_endpoints w, events e
    WHERE d.id IN (
        SELECT due.id FROM webhook_deliveries due
        JOIN webhook_endpoints dw ON dw.id = due.endpoint_id
        JOIN events de ON de.id = due.event_id
        -- Numbered events only (migration 019 numbers them after commit): a body carries its sequence.
        WHERE due.status = 'pending' AND due.next_attempt_at <= now() AND dw.enabled AND de.sequence IS NOT NULL
        ORDER BY due.next_attempt_at
        LIMIT p_limit
        FOR UPDATE OF due SKIP LOCKED)
      AND w.id = d.endpoint_id AND e.id = d.event_id
    RETURNING d.id, d.endpoint_id, d.event_id, d.attempts, w.url, w.secret, event_json(e);
END
$$;
