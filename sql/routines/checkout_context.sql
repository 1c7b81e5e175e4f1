-- What checkout needs before it places an order (CheckoutQueries.context): the customer's name,
-- the cart's store (token number, currency, when a token without a slot expires: it asks
-- collection_deadline) and calendar, any order this idempotency key already made, and the store's
-- tax (its `order_view` JSON: name, registration number, seller and address; NULL in no
-- jurisdiction), so checkout's answer says the tax as the order will (issue 48) without another
-- statement. One row when the customer exists.
--
-- PL/pgSQL, so PostgreSQL keeps its plans per connection (issue 15: PostgresNIO sends every
-- statement unnamed, and planning cost more than running for most of the hot reads).
-- Dropped first: CREATE OR REPLACE cannot change a function's result columns (tax_json, issue 48).
DROP FUNCTION IF EXISTS checkout_context(uuid, text);
CREATE OR REPLACE FUNCTION checkout_context(p_customer uuid, p_key text)
RETURNS TABLE (customer_name text, store_id uuid, token_number integer, currency text, window_end bigint,
               earlier_id uuid, earlier_hash bytea, time_zone text, slot_minutes integer, capacity integer,
               lead_minutes integer, horizon_days integer, grace_minutes integer, weekdays integer[], opens integer[],
               closes integer[], closure_days integer[], closure_reasons text[], tax_json text)
LANGUAGE plpgsql STABLE ROWS 1 AS $$
BEGIN
    RETURN QUERY
    SELECT u.name, ct.store_id, s.token_number, s.currency::text,
           extract(epoch FROM collection_deadline(NULL, NULL, s.collection_window))::int8,
           e.id, e.request_hash, k.*,
           (SELECT json_build_object('name', j.tax_name, 'number', s.tax_number, 'seller', s.name, 'address', s.address)::text
            FROM tax_jurisdictions j WHERE j.code = s.tax_jurisdiction)
    FROM users u
    LEFT JOIN carts ct ON ct.customer_id = u.id
    LEFT JOIN stores s ON s.id = ct.store_id
    LEFT JOIN LATERAL store_calendar(ct.store_id) k ON true
    LEFT JOIN orders e ON e.customer_id = u.id AND e.idempotency_key = p_key
    WHERE u.id = p_customer;
END
$$;
