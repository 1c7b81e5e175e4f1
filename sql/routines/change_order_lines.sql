-- The customer changes their pending order's lines until the cut-off, the moment it joins a pick
-- list (issue 48), as one statement: every lock is taken and released inside it, and any refusal
-- undoes all of it. `p_product_ids`, `p_quantities` and `p_shown_prices` are the request's
-- entries (each product once, quantities 0..99, 0 removing the line; a shown price below 0 where
-- the request gave none), bounded and checked by the service (OrderChanges.swift).
--
-- Lock order, as checkout and cancellation (place_order, OrderTransitions.apply): the order's
-- coupon row (a coupon with a limit in all), the stock rows of the named products by product id,
-- the order row, then the slot's counter row (take_slot_room). Pick-list creation claims orders
-- `FOR UPDATE SKIP LOCKED`, so of a change and a pick list racing for one order exactly one wins:
-- the list skips an order a change holds, and a change that waited for a list's claim reads the
-- list (a statement after the lock, so it sees the list's commit) and is refused.
--
-- Prices: a line the order has keeps the price it was placed at, whatever its new quantity (the
-- price guarantee of checkout); a new line is charged the store's price now. A shown price that
-- is not the price the line would be charged is price_changed, as at checkout. The coupon is
-- evaluated again: below its minimum spend, or with no line it applies to, the order loses it
-- and its redemption goes back; otherwise its discount is shared again (coupon_discounts). The
-- pick work booked in the slot follows the lines (order_pick_work, take_slot_room: never
-- overbooked). The pickup token is not touched. The history entry (kind `changed`) carries
-- who, and per product the quantity before and after; its event is `order.changed`.
--
-- Refusals: SQLSTATE 'FC000', the code as message, details as JSON in DETAIL (place_order's
-- convention, mapped by OrderError+DatabaseErrors.swift): order_not_found, order_not_changeable
-- {"status"}, order_locked_for_picking, product_not_found {"productId"}, product_discontinued
-- {"productId"}, order_would_be_empty, price_changed {"lines"}, insufficient_stock {"lines"},
-- total_too_large, slot_full {"reason"}. Answers whether anything changed.
CREATE OR REPLACE FUNCTION change_order_lines(
    p_order uuid, p_customer uuid, p_product_ids uuid[], p_quantities integer[], p_shown_prices bigint[]
) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
    v_order orders;
    v_coupon coupons;
    v_missing uuid;
    v_discontinued uuid;
    v_price_changes json;
    v_shortages json;
    v_changes jsonb;
    v_sum numeric;
    v_ids uuid[];
    v_amounts bigint[];
    v_discounts bigint[];
    v_work integer;
    v_capacity integer;
    v_slot_refusal text;
BEGIN
    SELECT * INTO v_order FROM orders o WHERE o.id = p_order AND o.customer_id = p_customer;
    IF NOT FOUND THEN
        RAISE EXCEPTION USING ERRCODE = 'FC000', MESSAGE = 'order_not_found';
    END IF;
    IF v_order.coupon_id IS NOT NULL THEN
        PERFORM 1 FROM coupons k WHERE k.id = v_order.coupon_id AND k.redemption_limit IS NOT NULL FOR UPDATE;
    END IF;
    PERFORM 1 FROM stock s WHERE s.store_id = v_order.store_id AND s.product_id = ANY (p_product_ids)
     ORDER BY s.product_id FOR UPDATE;
    -- The order row: a change waits here for a pick list's claim (or another change) to end.
    SELECT * INTO v_order FROM orders o WHERE o.id = p_order FOR UPDATE;
    IF v_order.status <> 'pending' THEN
        RAISE EXCEPTION USING ERRCODE = 'FC000', MESSAGE = 'order_not_changeable',
            DETAIL = json_build_object('status', v_order.status)::text;
    END IF;
    -- A statement of its own after the lock: it sees a list committed while this one waited.
    IF EXISTS (SELECT 1 FROM pick_list_orders plo WHERE plo.order_id = p_order AND plo.open) THEN
        RAISE EXCEPTION USING ERRCODE = 'FC000', MESSAGE = 'order_locked_for_picking';
    END IF;

    -- Each entry beside the order's line for it (if any) and the product.
    -- Dropped at commit; made once per transaction (no NOTICE when a second change comes in one).
    IF to_regclass('pg_temp.order_change') IS NULL THEN
        CREATE TEMP TABLE order_change (
            product_id uuid PRIMARY KEY, name text, old_quantity integer NOT NULL, new_quantity integer NOT NULL,
            price bigint, shown bigint, discontinued boolean, currency text, known boolean NOT NULL
        ) ON COMMIT DROP;
    END IF;
    TRUNCATE pg_temp.order_change;
    INSERT INTO pg_temp.order_change
    SELECT u.product_id, coalesce(l.name, p.name), coalesce(l.quantity, 0), u.quantity,
           coalesce(l.unit_price, CASE WHEN p.id IS NOT NULL THEN store_price(u.product_id, v_order.store_id) END),
           CASE WHEN u.shown >= 0 THEN u.shown END, coalesce(p.discontinued, false), p.currency, p.id IS NOT NULL
      FROM unnest(p_product_ids, p_quantities, p_shown_prices) AS u(product_id, quantity, shown)
      LEFT JOIN order_lines l ON l.order_id = p_order AND l.product_id = u.product_id
      LEFT JOIN products p ON p.id = u.product_id;

    SELECT c.product_id INTO v_missing FROM pg_temp.order_change c WHERE NOT c.known ORDER BY c.product_id LIMIT 1;
    IF v_missing IS NOT NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'FC000', MESSAGE = 'product_not_found',
            DETAIL = json_build_object('productId', v_missing)::text;
    END IF;
    -- A product no longer sold may be kept or reduced, not added or raised.
    SELECT c.product_id INTO v_discontinued FROM pg_temp.order_change c
     WHERE c.discontinued AND c.new_quantity > c.old_quantity ORDER BY c.product_id LIMIT 1;
    IF v_discontinued IS NOT NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'FC000', MESSAGE = 'product_discontinued',
            DETAIL = json_build_object('productId', v_discontinued)::text;
    END IF;
    DELETE FROM pg_temp.order_change c WHERE c.old_quantity = c.new_quantity;
    IF NOT EXISTS (SELECT 1 FROM pg_temp.order_change) THEN
        RETURN false;
    END IF;
    IF NOT EXISTS (SELECT 1 FROM order_lines l WHERE l.order_id = p_order
                     AND l.product_id NOT IN (SELECT c.product_id FROM pg_temp.order_change c))
       AND NOT EXISTS (SELECT 1 FROM pg_temp.order_change c WHERE c.new_quantity > 0) THEN
        RAISE EXCEPTION USING ERRCODE = 'FC000', MESSAGE = 'order_would_be_empty';
    END IF;
    SELECT json_agg(json_build_object('productId', c.product_id, 'shownPrice', c.shown, 'price', c.price,
                                      'currency', v_order.currency) ORDER BY c.product_id)
      INTO v_price_changes
      FROM pg_temp.order_change c WHERE c.new_quantity > 0 AND c.shown IS NOT NULL AND c.shown <> c.price;
    IF v_price_changes IS NOT NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'FC000', MESSAGE = 'price_changed', DETAIL = v_price_changes::text;
    END IF;

    -- Stock: what a line gives back is released, what it takes must be free (never oversold).
    SELECT json_agg(json_build_object('productId', c.product_id, 'requested', c.new_quantity,
                                      'available', c.old_quantity + greatest(coalesce(s.on_hand - s.reserved, 0), 0))
                    ORDER BY c.product_id)
      INTO v_shortages
      FROM pg_temp.order_change c
      LEFT JOIN stock s ON s.store_id = v_order.store_id AND s.product_id = c.product_id
     WHERE c.new_quantity > c.old_quantity AND coalesce(s.on_hand - s.reserved, 0) < c.new_quantity - c.old_quantity;
    IF v_shortages IS NOT NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'FC000', MESSAGE = 'insufficient_stock', DETAIL = v_shortages::text;
    END IF;
    UPDATE stock SET reserved = stock.reserved + (c.new_quantity - c.old_quantity), updated_at = now()
      FROM pg_temp.order_change c
     WHERE stock.store_id = v_order.store_id AND stock.product_id = c.product_id;

    -- The lines. Their coupon shares are set again below; cleared first so no CHECK sees a share
    -- larger than its line in between.
    UPDATE order_lines SET discount_amount = 0 WHERE order_id = p_order AND discount_amount <> 0;
    DELETE FROM order_lines l USING pg_temp.order_change c
     WHERE l.order_id = p_order AND l.product_id = c.product_id AND c.new_quantity = 0;
    UPDATE order_lines l SET quantity = c.new_quantity FROM pg_temp.order_change c
     WHERE l.order_id = p_order AND l.product_id = c.product_id AND c.old_quantity > 0 AND c.new_quantity > 0;
    INSERT INTO order_lines (store_id, order_id, product_id, name, unit_price, quantity, substitution)
    SELECT v_order.store_id, p_order, c.product_id, c.name, c.price, c.new_quantity, s.substitution_default
      FROM pg_temp.order_change c JOIN stores s ON s.id = v_order.store_id
     WHERE c.old_quantity = 0 AND c.new_quantity > 0;

    SELECT array_agg(l.product_id ORDER BY l.product_id), array_agg(l.unit_price * l.quantity ORDER BY l.product_id),
           sum(l.unit_price::numeric * l.quantity)
      INTO v_ids, v_amounts, v_sum
      FROM order_lines l WHERE l.order_id = p_order;
    IF v_sum >= 9223372036854775807 THEN
        RAISE EXCEPTION USING ERRCODE = 'FC000', MESSAGE = 'total_too_large';
    END IF;

    -- The coupon, evaluated again on the lines as they now are.
    IF v_order.coupon_id IS NOT NULL THEN
        SELECT * INTO v_coupon FROM coupons k WHERE k.id = v_order.coupon_id;
        IF (v_coupon.minimum_spend IS NOT NULL AND v_sum < v_coupon.minimum_spend)
           OR coupon_eligible_amount(v_coupon, v_ids, v_amounts) <= 0 THEN
            WITH released AS (
                UPDATE coupon_redemptions SET released_at = now()
                WHERE order_id = p_order AND released_at IS NULL RETURNING coupon_id)
            UPDATE coupons SET redeemed = coupons.redeemed - 1 FROM released
             WHERE coupons.id = released.coupon_id AND coupons.redemption_limit IS NOT NULL;
            UPDATE orders SET coupon_id = NULL WHERE id = p_order;
        ELSE
            v_discounts := coupon_discounts(v_coupon, v_ids, v_amounts);
            UPDATE order_lines l SET discount_amount = u.discount
              FROM unnest(v_ids, v_discounts) AS u(product_id, discount)
             WHERE l.order_id = p_order AND l.product_id = u.product_id;
            UPDATE coupon_redemptions r SET discount_amount = (SELECT coalesce(sum(d), 0) FROM unnest(v_discounts) d)
             WHERE r.order_id = p_order AND r.released_at IS NULL;
        END IF;
    END IF;
    PERFORM recompute_order_total(p_order, false);

    -- The slot's pick work follows the lines: given back, and taken again as they now are.
    IF v_order.pickup_slot_start IS NOT NULL THEN
        v_work := (SELECT order_pick_work(v_order.store_id, count(*), sum(l.quantity)) FROM order_lines l
                   WHERE l.order_id = p_order AND l.quantity > 0 AND l.removed_at IS NULL);
        IF v_work IS DISTINCT FROM v_order.pick_work_seconds THEN
            SELECT c.capacity INTO v_capacity FROM store_calendars c WHERE c.store_id = v_order.store_id;
            PERFORM 1 FROM pickup_slot_bookings b WHERE b.store_id = v_order.store_id AND b.slot_start = v_order.pickup_slot_start
               FOR UPDATE;
            UPDATE pickup_slot_bookings b SET booked = b.booked - 1, work_seconds = b.work_seconds - coalesce(v_order.pick_work_seconds, 0)
             WHERE b.store_id = v_order.store_id AND b.slot_start = v_order.pickup_slot_start AND b.booked > 0;
            v_slot_refusal := take_slot_room(v_order.store_id, v_order.pickup_slot_start, v_order.pickup_slot_end,
                                             coalesce(v_capacity, 1000), v_work);
            IF v_slot_refusal IS NOT NULL THEN
                RAISE EXCEPTION USING ERRCODE = 'FC000', MESSAGE = 'slot_full',
                    DETAIL = json_build_object('reason', v_slot_refusal)::text;
            END IF;
            UPDATE orders SET pick_work_seconds = v_work WHERE id = p_order;
        END IF;
    END IF;

    SELECT jsonb_agg(jsonb_build_object('productId', c.product_id, 'name', c.name, 'before', c.old_quantity, 'after', c.new_quantity)
                     ORDER BY c.name, c.product_id)
      INTO v_changes FROM pg_temp.order_change c;
    INSERT INTO order_events (store_id, order_id, from_status, to_status, actor_id, reason, kind, detail)
    SELECT v_order.store_id, p_order, 'pending', 'pending', p_customer,
           left(string_agg(c.name || ' ' || c.old_quantity || ' → ' || c.new_quantity, ', ' ORDER BY c.name, c.product_id), 500),
           'changed', jsonb_build_object('changes', v_changes)
      FROM pg_temp.order_change c;
    RETURN true;
END
$$;
