-- A picker short of a line gives something else instead (issue 27), as one statement: the
-- service has checked the pick list is the caller's store's and open, and resolved the scanned
-- substitute; everything else is checked here under the locks, where it cannot change.
--
-- Lock order, as everywhere: the stock rows of the order's products and the substitute's, by
-- product id, then the order row. Then, all or nothing:
--   * `p_quantity` units of the line move onto a new line for the substitute (the original's
--     quantity drops, its substituted_quantity rises), picked already, its substitution
--     `proposed` with id `p_substitution`;
--   * the original's reservation of those units is released and the substitute's taken, and
--     both moves are written to the stock ledger (reason `substitution`, on hand unchanged);
--   * the substitute's price follows the store's rule: `cap`, the lower of its price at the
--     store and the original line's unit price; `substitute_price`, its own. An order already
--     paid is never charged more than it paid for: it is capped whatever the rule. The part of
--     the original's coupon share that went with those units goes with them (share × units ÷
--     quantity, half to even, the one rounding rule), at most the substitute line's price;
--   * the total is recomputed (recompute_order_total) and the history gains the substitution,
--     whose event (order.substitution_proposed) the outbox sends at commit.
-- Refusals (SQLSTATE FC000, the code as MESSAGE, JSON as DETAIL; nothing changes):
--   order_not_pickable {status}: the order is not pending on this open list;
--   line_not_found: the order has no such line (or it is itself a substitute);
--   substitution_not_allowed {preference, substituteIds}: the line says `none`, or `specific`
--     without this product;
--   same_product: the substitute is the product itself;
--   substitute_on_order: the order already has a line of the substitute;
--   over_substitution {remaining}: more units than the line has left to pick;
--   product_discontinued, not_in_range: the substitute is discontinued, or not carried here;
--   insufficient_stock {lines: [{productId, requested, available}]}.
CREATE OR REPLACE FUNCTION substitute_order_line(
    p_store uuid, p_pick_list uuid, p_order uuid, p_product uuid, p_substitute uuid, p_quantity integer,
    p_staff uuid, p_substitution uuid
) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    v_status text;
    v_payment text;
    v_number bigint;
    v_on_list boolean;
    v_line order_lines;
    v_rule text;
    v_product products;
    v_price bigint;
    v_available integer;
    v_moved bigint;
    v_unit bigint;
BEGIN
    PERFORM 1 FROM stock s
     WHERE s.store_id = p_store
       AND (s.product_id = p_substitute OR s.product_id IN (SELECT l.product_id FROM order_lines l WHERE l.order_id = p_order))
     ORDER BY s.product_id FOR UPDATE;
    SELECT o.status, o.payment_status, o.number, coalesce(plo.open, false) INTO v_status, v_payment, v_number, v_on_list
      FROM orders o
      LEFT JOIN pick_list_orders plo ON plo.order_id = o.id AND plo.pick_list_id = p_pick_list
     WHERE o.id = p_order AND o.store_id = p_store
       FOR NO KEY UPDATE OF o;
    IF NOT FOUND OR v_status <> 'pending' OR NOT v_on_list THEN
        RAISE EXCEPTION USING ERRCODE = 'FC000', MESSAGE = 'order_not_pickable', DETAIL = json_build_object('status', v_status)::text;
    END IF;
    SELECT * INTO v_line FROM order_lines l WHERE l.order_id = p_order AND l.product_id = p_product AND l.substitute_for IS NULL;
    IF NOT FOUND THEN
        RAISE EXCEPTION USING ERRCODE = 'FC000', MESSAGE = 'line_not_found';
    END IF;
    IF v_line.substitution = 'none' OR (v_line.substitution = 'specific' AND NOT p_substitute = ANY (v_line.substitute_ids)) THEN
        RAISE EXCEPTION USING ERRCODE = 'FC000', MESSAGE = 'substitution_not_allowed',
            DETAIL = json_build_object('preference', v_line.substitution, 'substituteIds', v_line.substitute_ids)::text;
    END IF;
    IF p_substitute = p_product THEN
        RAISE EXCEPTION USING ERRCODE = 'FC000', MESSAGE = 'same_product';
    END IF;
    IF EXISTS (SELECT 1 FROM order_lines l WHERE l.order_id = p_order AND l.product_id = p_substitute) THEN
        RAISE EXCEPTION USING ERRCODE = 'FC000', MESSAGE = 'substitute_on_order';
    END IF;
    IF p_quantity < 1 OR p_quantity > v_line.quantity - coalesce(v_line.picked_quantity, 0) THEN
        RAISE EXCEPTION USING ERRCODE = 'FC000', MESSAGE = 'over_substitution',
            DETAIL = json_build_object('remaining', v_line.quantity - coalesce(v_line.picked_quantity, 0))::text;
    END IF;
    SELECT * INTO v_product FROM products p WHERE p.id = p_substitute;
    IF v_product.discontinued THEN
        RAISE EXCEPTION USING ERRCODE = 'FC000', MESSAGE = 'product_discontinued',
            DETAIL = json_build_object('productId', p_substitute)::text;
    END IF;
    SELECT s.on_hand - s.reserved INTO v_available FROM stock s WHERE s.store_id = p_store AND s.product_id = p_substitute;
    IF NOT FOUND THEN
        RAISE EXCEPTION USING ERRCODE = 'FC000', MESSAGE = 'not_in_range';
    END IF;
    IF v_available < p_quantity THEN
        RAISE EXCEPTION USING ERRCODE = 'FC000', MESSAGE = 'insufficient_stock',
            DETAIL = json_build_array(json_build_object('productId', p_substitute, 'requested', p_quantity,
                                                        'available', greatest(v_available, 0)))::text;
    END IF;

    SELECT s.substitution_price_rule INTO v_rule FROM stores s WHERE s.id = p_store;
    v_price := store_price(p_substitute, p_store);
    v_unit := CASE WHEN v_rule = 'substitute_price' AND v_payment = 'unpaid' THEN v_price ELSE least(v_price, v_line.unit_price) END;
    -- The coupon share of the units that move: share × units ÷ quantity, half to even.
    SELECT CASE WHEN 2 * r > d OR (2 * r = d AND mod(q, 2) <> 0) THEN q + 1 ELSE q END
      INTO v_moved
      FROM (SELECT div(n, d) AS q, mod(n, d) AS r, d
              FROM (SELECT v_line.discount_amount::numeric * p_quantity AS n, v_line.quantity::numeric AS d) AS inputs) AS parts;

    UPDATE order_lines SET quantity = quantity - p_quantity, substituted_quantity = substituted_quantity + p_quantity,
                           discount_amount = discount_amount - v_moved
     WHERE order_id = p_order AND product_id = p_product;
    INSERT INTO order_lines (store_id, order_id, product_id, name, unit_price, quantity, picked_quantity, discount_amount,
                             substitution_id, substitute_for, substitution_status)
    VALUES (p_store, p_order, p_substitute, v_product.name, v_unit, p_quantity, p_quantity,
            least(v_moved, v_unit * p_quantity), p_substitution, p_product, 'proposed');

    UPDATE stock SET reserved = stock.reserved + CASE WHEN stock.product_id = p_substitute THEN p_quantity ELSE -p_quantity END,
                     updated_at = now()
     WHERE stock.store_id = p_store AND stock.product_id IN (p_product, p_substitute);
    INSERT INTO stock_movements (store_id, product_id, delta, reserved_delta, reason, note, on_hand_after, actor_id)
    SELECT p_store, s.product_id, 0, CASE WHEN s.product_id = p_substitute THEN p_quantity ELSE -p_quantity END, 'substitution',
           CASE WHEN s.product_id = p_substitute THEN 'substitute for ' || v_line.name ELSE 'substituted by ' || v_product.name END
               || ' on order ' || v_number,
           s.on_hand, p_staff
      FROM stock s WHERE s.store_id = p_store AND s.product_id IN (p_product, p_substitute);

    PERFORM recompute_order_total(p_order, false);
    INSERT INTO order_events (store_id, order_id, from_status, to_status, actor_id, reason, kind, detail)
    VALUES (p_store, p_order, 'pending', 'pending', p_staff,
            p_quantity || ' × ' || v_product.name || ' instead of ' || v_line.name, 'substitution_proposed',
            jsonb_build_object('substitution', substitution_json(p_substitution)));
END
$$;
