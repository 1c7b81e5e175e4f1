-- The scan at the desk as one statement (issue 15): the service checks the token's signature
-- and expiry, then calls this once and reads the order back. Every lock is taken and released
-- inside it, so no client round trip happens while the order's stock rows are locked.
--
-- It hands the order over only when everything the desk requires holds, checked here under the
-- locks, where they cannot change: the order is of the scanning staff member's store, in a
-- status that may move to 'completed' (it asks order_transition_allowed, the SQL side of the
-- transition rule in OrderStatus.swift: packaged or out for delivery), paid (or otherwise
-- settled), the scanned text is its current token or a live collector pass of it, and an order holding age-restricted goods
-- has its age check recorded or confirmed with this scan (p_id_method). Otherwise it changes
-- nothing and returns false; the service then explains the refusal from the order as it stands
-- (Collections.check, which asks OrderStatus.canTransition), so the rule has one author (this)
-- and one explainer.
--
-- Lock order, as everywhere: the stock rows by product id, then the order row.
CREATE OR REPLACE FUNCTION collect_order(p_order uuid, p_store uuid, p_staff uuid, p_text text, p_id_method text)
RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
    v_status text;
    v_required integer;
    v_pass uuid;
BEGIN
    PERFORM 1 FROM stock s
     WHERE s.store_id = p_store AND s.product_id IN (SELECT l.product_id FROM order_lines l WHERE l.order_id = p_order)
     ORDER BY s.product_id FOR UPDATE;
    SELECT o.status INTO v_status FROM orders o
     WHERE o.id = p_order AND o.store_id = p_store AND order_transition_allowed(o.status, 'completed') AND o.payment_status <> 'unpaid'
       FOR UPDATE;
    IF NOT FOUND THEN
        RETURN false;
    END IF;
    -- The receipt's current token, or a live collector pass of the order (issue 48): not
    -- revoked, not expired, the receipt not yet used. The pass row is locked, so a revocation
    -- racing the scan either lands first (refused) or waits for the hand-over.
    PERFORM 1 FROM pickup_tokens t WHERE t.order_id = p_order AND t.text = p_text AND t.used_at IS NULL;
    IF NOT FOUND THEN
        SELECT c.id INTO v_pass FROM collector_passes c
         WHERE c.order_id = p_order AND c.text = p_text AND c.revoked_at IS NULL AND c.used_at IS NULL AND c.expires_at > now()
           AND EXISTS (SELECT 1 FROM pickup_tokens t WHERE t.order_id = p_order AND t.used_at IS NULL)
           FOR UPDATE;
        IF NOT FOUND THEN
            RETURN false;
        END IF;
    END IF;
    SELECT max(l.minimum_age) INTO v_required FROM order_lines l WHERE l.order_id = p_order AND l.removed_at IS NULL;
    IF v_required IS NOT NULL AND NOT EXISTS (SELECT 1 FROM id_checks k WHERE k.order_id = p_order) THEN
        IF p_id_method IS NULL THEN
            RETURN false;
        END IF;
        INSERT INTO id_checks (order_id, store_id, minimum_age, method, confirmed_by)
        VALUES (p_order, p_store, v_required, p_id_method, p_staff);
    END IF;

    -- A substitution still undecided at the hand-over is taken as it is bagged (issue 27): the
    -- customer agreed to substitutes beforehand, and a rejected one left the bag at the desk.
    UPDATE order_lines SET substitution_status = 'accepted', substitution_decided_at = now(), substitution_decided_by = p_staff
     WHERE order_id = p_order AND substitution_status = 'proposed';
    UPDATE orders SET status = 'completed', completed_at = now(), collected_at = now(), collected_by = p_staff,
                      collector_pass_id = v_pass
     WHERE id = p_order;
    UPDATE collector_passes SET used_at = now() WHERE id = v_pass;
    UPDATE pickup_tokens SET used_at = now(), used_by = p_staff WHERE order_id = p_order AND used_at IS NULL;
    -- Its bags leave the store (issue 47): the service counted them out before this scan.
    UPDATE order_bags SET handed_over_at = now() WHERE order_id = p_order AND handed_over_at IS NULL;
    UPDATE stock SET on_hand = stock.on_hand - held_quantity(l, true),
                     reserved = stock.reserved - held_quantity(l, true),
                     updated_at = now()
      FROM order_lines l
     WHERE l.order_id = p_order AND stock.store_id = p_store AND stock.product_id = l.product_id;
    INSERT INTO order_events (store_id, order_id, from_status, to_status, actor_id, reason)
    VALUES (p_store, p_order, v_status, 'completed', p_staff, 'collected');
    RETURN true;
END
$$;
