-- Checkout's writes as one statement (issue 15): the service reads what it needs first
-- (checkout_context: the cart's store, the calendar), validates the slot and signs the pickup
-- token, then calls this once. Every lock is taken and released inside this one statement, so no
-- client round trip ever happens while a stock row is locked.
--
-- Lock order, as everywhere: the cart row, the cart's coupon row (coupons), the stock rows by
-- product id, the slot counter row (take_slot_room). A cancellation locks the order's coupon row
-- before its stock rows too (OrderTransitions), so the two never deadlock.
--
-- A refusal is raised with SQLSTATE 'FC000', the error code as its message and any details as
-- JSON in DETAIL; the statement's writes are all undone with it. The service maps it to the
-- contract's error (Checkout.swift):
--   cart_empty, cart_changed (the cart's store moved since the service read it: read again),
--   already_placed (an order with this key exists: answer with it), product_discontinued
--   {"productId"}, total_too_large, insufficient_stock {"lines": [...]}, slot_full, and the
--   coupon's refusals under its lock (coupon_refusal: coupon_expired, coupon_not_yet_valid,
--   coupon_not_applicable, coupon_exhausted, coupon_already_used, coupon_minimum_spend), their
--   JSON with the coupon's currency as DETAIL. slot_full has {"reason": "places" | "work"}.
-- SALES: price_changed {"lines": [{productId, shownPrice, price, currency}]}: a line's price is not the
-- one the customer was last shown (cart_items.quoted_price, recorded by cart_view).
-- The minimum ages it answers with are those at the order's store (minimum_age_at); the lines
-- record their own (order_lines_minimum_age.trigger.sql).
CREATE OR REPLACE FUNCTION place_order(
    p_customer uuid, p_store uuid, p_order uuid, p_method text, p_key text, p_hash bytea,
    p_slot_start timestamptz, p_slot_end timestamptz, p_slot_capacity integer,
    p_token_key integer, p_token_text text, p_token_expires timestamptz,
    OUT number bigint, OUT created_at timestamptz, OUT total bigint, OUT discount bigint, OUT discounts bigint[],
    OUT product_ids uuid[], OUT names text[], OUT unit_prices bigint[], OUT quantities integer[], OUT minimum_ages integer[],
    -- Each line's substitution preference as the order keeps it (issue 27), and the tax class and
    -- rate its trigger recorded (issue 48), JSON [{preference, productIds, taxClass, taxRate}] in product order.
    OUT substitutions text
) LANGUAGE plpgsql AS $$
DECLARE
    v_store uuid;
    v_sum numeric;
    v_discontinued uuid;
    v_shortages json;
    v_reserved integer;
    v_price_changes json;
    v_coupon_id uuid;
    v_coupon coupons;
    v_amounts bigint[];
    v_refusal json;
    v_work integer;
    v_slot_refusal text;
BEGIN
    -- Two checkouts of one cart (different keys) run one after the other.
    SELECT c.store_id, c.coupon_id INTO v_store, v_coupon_id FROM carts c WHERE c.customer_id = p_customer FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION USING ERRCODE = 'FC000', MESSAGE = 'cart_empty';
    END IF;
    IF v_store <> p_store THEN
        RAISE EXCEPTION USING ERRCODE = 'FC000', MESSAGE = 'cart_changed';
    END IF;
    -- Holding the cart lock: a request with the same key that held it first has committed by now.
    PERFORM 1 FROM orders o WHERE o.customer_id = p_customer AND o.idempotency_key = p_key;
    IF FOUND THEN
        RAISE EXCEPTION USING ERRCODE = 'FC000', MESSAGE = 'already_placed';
    END IF;

    SELECT array_agg(i.product_id ORDER BY i.product_id), array_agg(p.name ORDER BY i.product_id),
           array_agg(pr.price ORDER BY i.product_id), array_agg(i.quantity ORDER BY i.product_id),
           -- 0: none (an answer only; the trigger records the lines' own)
           array_agg(coalesce(minimum_age_at(p_store, i.product_id), 0) ORDER BY i.product_id),
           (array_agg(i.product_id ORDER BY i.product_id) FILTER (WHERE p.discontinued))[1],
           sum(pr.price::numeric * i.quantity)
      INTO product_ids, names, unit_prices, quantities, minimum_ages, v_discontinued, v_sum
      FROM cart_items i JOIN products p ON p.id = i.product_id
      -- The store's price, or else the catalogue's: what the cart showed at this store.
      CROSS JOIN LATERAL (SELECT store_price(i.product_id, p_store) AS price) pr
     WHERE i.customer_id = p_customer;
    IF product_ids IS NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'FC000', MESSAGE = 'cart_empty';
    END IF;
    IF v_discontinued IS NOT NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'FC000', MESSAGE = 'product_discontinued',
            DETAIL = json_build_object('productId', v_discontinued)::text;
    END IF;
    -- SALES (issue 26): the price guarantee. Each line is charged the price the customer was last
    -- shown (quoted_price: set by set_cart_line, refreshed by every cart read), or nothing is
    -- ordered and price_changed names the lines whose price moved since (a sale started or ended,
    -- the store's price changed); reading the cart then shows, and records, the new prices.
    SELECT json_agg(json_build_object('productId', u.product_id, 'shownPrice', i.quoted_price, 'price', u.price,
                                      'currency', p.currency) ORDER BY u.product_id)
      INTO v_price_changes
      FROM unnest(product_ids, unit_prices) AS u(product_id, price)
      JOIN cart_items i ON i.customer_id = p_customer AND i.product_id = u.product_id
      JOIN products p ON p.id = u.product_id
     WHERE i.quoted_price IS DISTINCT FROM u.price;
    IF v_price_changes IS NOT NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'FC000', MESSAGE = 'price_changed', DETAIL = v_price_changes::text;
    END IF;
    -- End of SALES' part.
    IF v_sum >= 9223372036854775807 THEN
        RAISE EXCEPTION USING ERRCODE = 'FC000', MESSAGE = 'total_too_large';
    END IF;
    total := v_sum;

    -- COUPONS-REDEEM (issue 26): the cart's coupon is redeemed here or the checkout is refused.
    -- A coupon with a limit in all has its row locked (after the cart's, before the stock's) and
    -- is checked again under the lock, so of N checkouts racing for its last redemption one
    -- passes and the rest see it exhausted; the redemption is counted on that row (`redeemed`,
    -- CHECKed against the limit). A coupon without one is neither locked nor counted on its row
    -- (its count is its live redemptions): one hot coupon on every cart would otherwise queue
    -- every checkout behind its row. A customer's own limit needs no coupon lock: their
    -- checkouts already queue on their cart's row, and the unique index below numbers their uses.
    discount := 0;
    discounts := array_fill(0::bigint, ARRAY[cardinality(product_ids)]);
    IF v_coupon_id IS NOT NULL THEN
        SELECT * INTO v_coupon FROM coupons k WHERE k.id = v_coupon_id;
        IF v_coupon.redemption_limit IS NOT NULL THEN
            SELECT * INTO v_coupon FROM coupons k WHERE k.id = v_coupon_id FOR UPDATE;
        END IF;
        IF v_coupon.id IS NULL THEN
            RAISE EXCEPTION USING ERRCODE = 'FC000', MESSAGE = 'coupon_unknown', DETAIL = '{"code": "coupon_unknown"}';
        END IF;
        v_amounts := array_fill(0::bigint, ARRAY[cardinality(product_ids)]);
        FOR i IN 1..cardinality(product_ids) LOOP
            v_amounts[i] := unit_prices[i] * quantities[i];
        END LOOP;
        v_refusal := coupon_refusal(v_coupon, p_customer, p_store, v_sum::bigint,
                                    coupon_eligible_amount(v_coupon, product_ids, v_amounts), now());
        IF v_refusal IS NOT NULL THEN
            RAISE EXCEPTION USING ERRCODE = 'FC000', MESSAGE = v_refusal ->> 'code',
                DETAIL = (v_refusal::jsonb || jsonb_build_object('currency', v_coupon.currency))::text;
        END IF;
        discounts := coupon_discounts(v_coupon, product_ids, v_amounts);
        FOR i IN 1..cardinality(discounts) LOOP
            discount := discount + discounts[i];
        END LOOP;
        total := v_sum - discount;
    END IF;
    -- End of COUPONS-REDEEM's part (the redemption's rows are written after the order's).

    -- Lock in product-id order, then check every line, so a shortage lists them all.
    PERFORM 1 FROM stock s WHERE s.store_id = p_store AND s.product_id = ANY (product_ids) ORDER BY s.product_id FOR UPDATE;
    SELECT json_agg(json_build_object('productId', u.product_id, 'requested', u.quantity,
                                      'available', coalesce(s.on_hand - s.reserved, 0)) ORDER BY u.product_id)
      INTO v_shortages
      FROM unnest(product_ids, quantities) AS u(product_id, quantity)
      LEFT JOIN stock s ON s.store_id = p_store AND s.product_id = u.product_id
     WHERE coalesce(s.on_hand - s.reserved, 0) < u.quantity;
    IF v_shortages IS NOT NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'FC000', MESSAGE = 'insufficient_stock', DETAIL = v_shortages::text;
    END IF;
    UPDATE stock SET reserved = stock.reserved + u.quantity, updated_at = now()
      FROM unnest(product_ids, quantities) AS u(product_id, quantity)
     WHERE stock.store_id = p_store AND stock.product_id = u.product_id
       AND stock.on_hand - stock.reserved >= u.quantity;
    GET DIAGNOSTICS v_reserved = ROW_COUNT;
    IF v_reserved <> cardinality(product_ids) THEN
        RAISE EXCEPTION 'place_order: % of % lines reserved while their rows were locked', v_reserved, cardinality(product_ids);
    END IF;

    -- Issue 47: the slot's place and the order's pick work (its lines and units at the store's
    -- estimate), taken together under the counter row's lock; DETAIL says which ran out.
    IF p_slot_start IS NOT NULL THEN
        v_work := order_pick_work(p_store, cardinality(product_ids), (SELECT sum(q) FROM unnest(quantities) q));
        v_slot_refusal := take_slot_room(p_store, p_slot_start, p_slot_end, p_slot_capacity, v_work);
        IF v_slot_refusal IS NOT NULL THEN
            RAISE EXCEPTION USING ERRCODE = 'FC000', MESSAGE = 'slot_full',
                DETAIL = json_build_object('reason', v_slot_refusal)::text;
        END IF;
    END IF;

    INSERT INTO orders (id, store_id, customer_id, payment_method, total_amount, currency, idempotency_key, request_hash,
                        pickup_slot_start, pickup_slot_end, coupon_id, discount_amount, pick_work_seconds)
    SELECT p_order, p_store, p_customer, p_method, total, s.currency, p_key, p_hash, p_slot_start, p_slot_end,
           v_coupon.id, discount, v_work
      FROM stores s WHERE s.id = p_store
    RETURNING orders.number, orders.created_at INTO number, created_at;
    -- Each line keeps its substitution preference, the store's default where it said none (issue 27).
    INSERT INTO order_lines (store_id, order_id, product_id, name, unit_price, quantity, discount_amount, substitution, substitute_ids)
    SELECT p_store, p_order, u.product_id, u.name, u.price, u.quantity, u.discount,
           coalesce(i.substitution, s.substitution_default), i.substitute_ids
      FROM unnest(product_ids, names, unit_prices, quantities, discounts) AS u(product_id, name, price, quantity, discount)
      JOIN cart_items i ON i.customer_id = p_customer AND i.product_id = u.product_id
      JOIN stores s ON s.id = p_store;
    SELECT json_agg(json_build_object('preference', l.substitution, 'productIds', l.substitute_ids,
                                      'taxClass', l.tax_class, 'taxRate', l.tax_rate_bp) ORDER BY l.product_id)::text
      INTO substitutions
      FROM order_lines l WHERE l.order_id = p_order;
    -- COUPONS-REDEEM (issue 26): the redemption, this customer's lowest free number among their
    -- live ones (1...per_customer_limit: the refusal above saw fewer than the limit), and the count.
    -- Without a limit per customer the number only keeps the index unique: one past their
    -- highest (one probe of the index, where the lowest free one would probe every number).
    IF v_coupon.id IS NOT NULL AND v_coupon.per_customer_limit IS NULL THEN
        INSERT INTO coupon_redemptions (order_id, store_id, coupon_id, customer_id, nth, discount_amount)
        SELECT p_order, p_store, v_coupon.id, p_customer, coalesce(max(r.nth), 0) + 1, discount
          FROM coupon_redemptions r
         WHERE r.coupon_id = v_coupon.id AND r.customer_id = p_customer AND r.released_at IS NULL;
    ELSIF v_coupon.id IS NOT NULL THEN
        INSERT INTO coupon_redemptions (order_id, store_id, coupon_id, customer_id, nth, discount_amount)
        SELECT p_order, p_store, v_coupon.id, p_customer, min(n.nth), discount
          FROM generate_series(1, (SELECT count(*) + 1 FROM coupon_redemptions r
                                    WHERE r.coupon_id = v_coupon.id AND r.customer_id = p_customer AND r.released_at IS NULL)::integer)
               AS n(nth)
         WHERE NOT EXISTS (SELECT 1 FROM coupon_redemptions r
                            WHERE r.coupon_id = v_coupon.id AND r.customer_id = p_customer AND r.released_at IS NULL
                              AND r.nth = n.nth);
    END IF;
    IF v_coupon.id IS NOT NULL THEN
        IF v_coupon.redemption_limit IS NOT NULL THEN
            UPDATE coupons SET redeemed = redeemed + 1 WHERE id = v_coupon.id;
        END IF;
        UPDATE carts SET coupon_id = NULL WHERE customer_id = p_customer;
    END IF;
    INSERT INTO order_events (store_id, order_id, from_status, to_status, actor_id)
    VALUES (p_store, p_order, NULL, 'pending', p_customer);
    INSERT INTO pickup_tokens (store_id, order_id, key_id, text, expires_at)
    VALUES (p_store, p_order, p_token_key, p_token_text, p_token_expires);
    DELETE FROM cart_items WHERE customer_id = p_customer;
END
$$;
