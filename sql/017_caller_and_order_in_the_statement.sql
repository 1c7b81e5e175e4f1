-- The bearer token and the order read, as functions a statement can include (issue 15), so a
-- hot route's first statement also says who is calling, and a scan's write also reads the
-- order back: checkout in two round trips, the scan preview in one, the collection in two.

-- Who a session token belongs to, with both lifetimes enforced by the database's clock, and its
-- use recorded at most every p_touch seconds (to spare a write per request). An expired session
-- is not touched, so it stays expired. No row: no such session, or it was ended (logout, a
-- disabled account, a password change). `SessionQueries.lookUp` is this and nothing else; a
-- statement that includes it returns these columns first, and the service authorises them
-- (`AccessPolicy`) before it uses anything else that statement read.
--
-- PL/pgSQL, so its two statements' plans are cached per connection (a SQL function holding a
-- data-modifying CTE is planned again at every call), and ROWS 1 (the token hash is unique), so
-- a statement that joins it plans index lookups from its one row, not a thousand.
CREATE FUNCTION session_caller(p_token_hash bytea, p_idle integer, p_max integer, p_touch integer)
RETURNS TABLE (user_id uuid, role text, store_id uuid, session_id uuid, expired boolean)
LANGUAGE plpgsql VOLATILE ROWS 1 AS $$
DECLARE
    v_last_used timestamptz;
BEGIN
    SELECT u.id, u.role, u.store_id, s.id, s.last_used_at,
           s.last_used_at <= now() - make_interval(secs => p_idle) OR s.created_at <= now() - make_interval(secs => p_max)
      INTO user_id, role, store_id, session_id, v_last_used, expired
      FROM sessions s JOIN users u ON u.id = s.user_id
     WHERE s.token_hash = p_token_hash AND s.ended_at IS NULL AND u.disabled_at IS NULL;
    IF NOT FOUND THEN
        RETURN;
    END IF;
    IF NOT expired AND v_last_used < now() - make_interval(secs => p_touch) THEN
        UPDATE sessions SET last_used_at = now()
         WHERE sessions.id = session_id AND sessions.last_used_at < now() - make_interval(secs => p_touch);
    END IF;
    RETURN NEXT;
END
$$;

-- One order as the service shows it: lines, history and age check as JSON text, so the whole
-- order is one row. Timestamps inside the JSON are PostgreSQL's microseconds since 2000 (see
-- OrderParts). `OrderQueries.order` reads this; `collect_order_viewed` returns it after the scan.
CREATE TYPE order_view AS (
    id uuid, number bigint, store_id uuid, customer_id uuid, customer_name text, status text,
    payment_method text, payment_status text, total_amount bigint, currency text,
    created_at timestamptz, packaged_at timestamptz, delivering_at timestamptz, completed_at timestamptz,
    cancelled_at timestamptz, paid_at timestamptz, collected_at timestamptz, collected_by uuid,
    token_text text, token_expires_at timestamptz, token_used_at timestamptz, refund_due_amount bigint,
    pickup_slot_start timestamptz, pickup_slot_end timestamptz, time_zone text,
    lines text, history text, id_check text
);

CREATE FUNCTION order_view(p_order uuid) RETURNS SETOF order_view LANGUAGE sql STABLE ROWS 1 AS $$
    SELECT o.id, o.number, o.store_id, o.customer_id, u.name, o.status, o.payment_method, o.payment_status,
           o.total_amount, o.currency::text, o.created_at, o.packaged_at, o.delivering_at, o.completed_at,
           o.cancelled_at, o.paid_at, o.collected_at, o.collected_by, t.text, t.expires_at, t.used_at,
           o.refund_due_amount, o.pickup_slot_start, o.pickup_slot_end, c.time_zone,
           (SELECT coalesce(json_agg(json_build_object(
                       'productId', l.product_id, 'name', l.name, 'unitPrice', l.unit_price, 'quantity', l.quantity,
                       'picked', l.picked_quantity, 'minimumAge', l.minimum_age, 'removed', l.removed_at IS NOT NULL)
                   ORDER BY l.name, l.product_id), '[]')
            FROM order_lines l WHERE l.order_id = o.id)::text,
           (SELECT coalesce(json_agg(json_build_object(
                       'from', e.from_status, 'to', e.to_status, 'actorId', e.actor_id, 'actorName', a.name,
                       'reason', e.reason, 'at', ((extract(epoch FROM e.at) - 946684800) * 1000000)::int8)
                   ORDER BY e.id), '[]')
            FROM order_events e LEFT JOIN users a ON a.id = e.actor_id WHERE e.order_id = o.id)::text,
           json_build_object(
               'required', (SELECT max(l.minimum_age) FROM order_lines l WHERE l.order_id = o.id AND l.removed_at IS NULL),
               'minimumAge', k.minimum_age, 'method', k.method, 'by', k.confirmed_by, 'byName', ku.name,
               'at', ((extract(epoch FROM k.confirmed_at) - 946684800) * 1000000)::int8)::text
    FROM orders o
    JOIN users u ON u.id = o.customer_id
    LEFT JOIN pickup_tokens t ON t.order_id = o.id
    LEFT JOIN store_calendars c ON c.store_id = o.store_id
    LEFT JOIN id_checks k ON k.order_id = o.id
    LEFT JOIN users ku ON ku.id = k.confirmed_by
    WHERE o.id = p_order
$$;

-- The scan (collect_order, migration 015) and the order as it then stands, in one statement:
-- the answer when it was handed over, the explanation (Collections.check) when it was not.
-- PL/pgSQL, so the read is a new query that sees the scan's own writes.
CREATE FUNCTION collect_order_viewed(p_order uuid, p_store uuid, p_staff uuid, p_text text, p_id_method text)
RETURNS TABLE (collected boolean, o order_view) LANGUAGE plpgsql AS $$
DECLARE
    v_collected boolean := collect_order(p_order, p_store, p_staff, p_text, p_id_method);
BEGIN
    RETURN QUERY SELECT v_collected, v FROM order_view(p_order) v;
END
$$;
