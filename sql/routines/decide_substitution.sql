-- The customer's answer to a substitution (issue 27), given through the API by the order's
-- customer or recorded at the desk by staff, as one statement. Lock order, as everywhere: the
-- order's stock rows by product id, then the order row; so a decision and the hand-over
-- (collect_order, which takes the same locks) run one after the other, never interleaved:
-- either the decision lands first and the hand-over sees its total, or the hand-over lands
-- first and the decision is refused `already_collected`.
--
-- Rejecting gives the substitute's stock back (ledger reason `substitution`) and takes its
-- price off the total (recompute_order_total); accepting changes neither. The same answer again
-- changes nothing (true is returned either way, `p_changed` says whether it did); the other
-- answer once one is given is `substitution_decided`. Refusals (SQLSTATE FC000, nothing
-- changes): substitution_not_found (not this order's, or not `p_customer`'s when given),
-- already_collected, order_cancelled, substitution_decided {status}.
CREATE OR REPLACE FUNCTION decide_substitution(
    p_order uuid, p_substitution uuid, p_accept boolean, p_actor uuid, p_customer uuid, p_store uuid,
    OUT p_changed boolean
) LANGUAGE plpgsql AS $$
DECLARE
    v_order orders;
    v_line order_lines;
    v_wanted text := CASE WHEN p_accept THEN 'accepted' ELSE 'rejected' END;
BEGIN
    PERFORM 1 FROM stock s
     WHERE s.store_id = (SELECT o.store_id FROM orders o WHERE o.id = p_order)
       AND s.product_id IN (SELECT l.product_id FROM order_lines l WHERE l.order_id = p_order)
     ORDER BY s.product_id FOR UPDATE;
    SELECT * INTO v_order FROM orders o
     WHERE o.id = p_order AND (p_customer IS NULL OR o.customer_id = p_customer) AND (p_store IS NULL OR o.store_id = p_store)
       FOR NO KEY UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION USING ERRCODE = 'FC000', MESSAGE = 'substitution_not_found';
    END IF;
    SELECT * INTO v_line FROM order_lines l WHERE l.order_id = p_order AND l.substitution_id = p_substitution;
    IF NOT FOUND THEN
        RAISE EXCEPTION USING ERRCODE = 'FC000', MESSAGE = 'substitution_not_found';
    END IF;
    IF v_order.status = 'completed' THEN
        RAISE EXCEPTION USING ERRCODE = 'FC000', MESSAGE = 'already_collected';
    END IF;
    IF v_order.status = 'cancelled' THEN
        RAISE EXCEPTION USING ERRCODE = 'FC000', MESSAGE = 'order_cancelled';
    END IF;
    IF v_line.substitution_status = v_wanted THEN
        p_changed := false;
        RETURN;
    END IF;
    IF v_line.substitution_status <> 'proposed' THEN
        RAISE EXCEPTION USING ERRCODE = 'FC000', MESSAGE = 'substitution_decided',
            DETAIL = json_build_object('status', v_line.substitution_status)::text;
    END IF;
    IF NOT p_accept THEN
        -- What it held until now: all of it (a substitute is picked whole and never short).
        UPDATE stock SET reserved = stock.reserved - held_quantity(v_line, v_order.status <> 'pending'), updated_at = now()
         WHERE stock.store_id = v_order.store_id AND stock.product_id = v_line.product_id;
        INSERT INTO stock_movements (store_id, product_id, delta, reserved_delta, reason, note, on_hand_after, actor_id)
        SELECT v_order.store_id, s.product_id, 0, -held_quantity(v_line, v_order.status <> 'pending'), 'substitution',
               'substitute rejected on order ' || v_order.number, s.on_hand, p_actor
          FROM stock s WHERE s.store_id = v_order.store_id AND s.product_id = v_line.product_id;
    END IF;
    UPDATE order_lines SET substitution_status = v_wanted, substitution_decided_at = now(), substitution_decided_by = p_actor
     WHERE order_id = p_order AND substitution_id = p_substitution;
    IF NOT p_accept THEN
        PERFORM recompute_order_total(p_order, v_order.status <> 'pending');
    END IF;
    INSERT INTO order_events (store_id, order_id, from_status, to_status, actor_id, reason, kind, detail)
    VALUES (v_order.store_id, p_order, v_order.status, v_order.status, p_actor,
            v_wanted || ': ' || v_line.quantity || ' × ' || v_line.name, 'substitution_decided',
            jsonb_build_object('substitution', substitution_json(p_substitution)));
    p_changed := true;
END
$$;
