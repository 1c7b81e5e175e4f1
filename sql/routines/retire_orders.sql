-- The retention sweep (issue 32, FULFILMENT_RETENTION_DAYS): up to `p_limit` collected or
-- cancelled orders that ended more than `p_days` days ago are anonymised as an erasure
-- anonymises them, though their customer's account lives on: the order moves under a tombstone
-- customer (one account, "Deleted customer", created here the first time it is needed), its
-- arrival vehicle and note go, its events in the outbox lose the customer's name and arrival
-- details, the history entries the customer made and their coupon redemption move with it (the
-- redemption renumbered among the tombstone's, so the per-customer index stays unique), and its
-- idempotency key is replaced (keys are unique per customer). The books keep the rest.
-- Orders are claimed FOR UPDATE SKIP LOCKED, so sweeps on several instances share the work.
-- Answers how many orders it retired: the caller sweeps again until fewer than `p_limit`.
CREATE OR REPLACE FUNCTION retire_orders(p_days integer, p_limit integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
    v_tombstone constant uuid := '00000000-0000-0000-0000-00000000dead';
    v_ids uuid[];
    v_count integer;
BEGIN
    SELECT array_agg(o.id) INTO v_ids FROM (
        SELECT o.id FROM orders o
         WHERE o.status IN ('completed', 'cancelled') AND o.customer_id <> v_tombstone
           AND coalesce(o.collected_at, o.cancelled_at, o.created_at) < now() - make_interval(days => p_days)
         ORDER BY coalesce(o.collected_at, o.cancelled_at, o.created_at), o.id
         LIMIT p_limit
         FOR UPDATE SKIP LOCKED) o;
    IF v_ids IS NULL THEN
        RETURN 0;
    END IF;
    INSERT INTO users (id, email, name, password_hash, role, disabled_at, erased_at)
    VALUES (v_tombstone, 'retired-orders@erased.invalid', 'Deleted customer', '!', 'customer', now(), now())
    ON CONFLICT (id) DO NOTHING;

    PERFORM scrub_order_events(v_ids, 'Deleted customer');
    UPDATE order_events ev SET actor_id = v_tombstone
      FROM orders o WHERE o.id = ANY (v_ids) AND ev.order_id = o.id AND ev.actor_id = o.customer_id;
    UPDATE coupon_redemptions r SET customer_id = v_tombstone, nth = n.next
      FROM (SELECT r2.order_id,
                   (SELECT coalesce(max(x.nth), 0) FROM coupon_redemptions x WHERE x.coupon_id = r2.coupon_id AND x.customer_id = v_tombstone)
                   + row_number() OVER (PARTITION BY r2.coupon_id ORDER BY r2.order_id) AS next
              FROM coupon_redemptions r2 WHERE r2.order_id = ANY (v_ids)) n
     WHERE r.order_id = n.order_id;
    UPDATE collector_passes SET name = 'Deleted collector' WHERE order_id = ANY (v_ids);
    UPDATE orders SET customer_id = v_tombstone, arrival_vehicle = NULL, arrival_note = NULL, idempotency_key = 'retired-' || id
     WHERE id = ANY (v_ids);
    GET DIAGNOSTICS v_count = ROW_COUNT;
    RETURN v_count;
END
$$;
