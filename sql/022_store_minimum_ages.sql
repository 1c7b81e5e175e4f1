-- 022_store_minimum_ages: a product's minimum age is the chain's, set by its admin (issue 24: a
-- manager of one store could change it for every store). A store may ask more of its own, where
-- its law is stricter, and never less: what a line records at checkout, and what the desk then
-- asks ID for, is the greater of the two.

CREATE TABLE store_minimum_ages (
    store_id    uuid NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
    product_id  uuid NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    minimum_age integer NOT NULL CHECK (minimum_age BETWEEN 1 AND 120),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (store_id, product_id)
);

-- The age a customer of `p_store` must be to buy `p_product`: the chain's or the store's,
-- whichever is greater (GREATEST skips a NULL); NULL when neither asks any.
CREATE FUNCTION minimum_age_at(p_store uuid, p_product uuid) RETURNS integer LANGUAGE sql STABLE AS $$
    SELECT GREATEST(p.minimum_age,
                    (SELECT s.minimum_age FROM store_minimum_ages s WHERE s.store_id = p_store AND s.product_id = p.id))
      FROM products p WHERE p.id = p_product
$$;

-- Every way a line is written captures the age at its store at that moment.
CREATE OR REPLACE FUNCTION order_line_minimum_age() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    NEW.minimum_age := minimum_age_at(NEW.store_id, NEW.product_id);
    RETURN NEW;
END
$$;

-- place_order as in 014, but for the ages it answers with, which are now the store's.
CREATE OR REPLACE FUNCTION place_order(
    p_customer uuid, p_store uuid, p_order uuid, p_method text, p_key text, p_hash bytea,
    p_slot_start timestamptz, p_slot_end timestamptz, p_slot_capacity integer,
    p_token_key integer, p_token_text text, p_token_expires timestamptz,
    OUT number bigint, OUT created_at timestamptz, OUT total bigint,
    OUT product_ids uuid[], OUT names text[], OUT unit_prices bigint[], OUT quantities integer[], OUT minimum_ages integer[]
) LANGUAGE plpgsql AS $$
DECLARE
    v_store uuid;
    v_sum numeric;
    v_discontinued uuid;
    v_shortages json;
    v_reserved integer;
BEGIN
    -- Two checkouts of one cart (different keys) run one after the other.
    SELECT c.store_id INTO v_store FROM carts c WHERE c.customer_id = p_customer FOR UPDATE;
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
           array_agg(p.price_amount ORDER BY i.product_id), array_agg(i.quantity ORDER BY i.product_id),
           array_agg(coalesce(minimum_age_at(p_store, i.product_id), 0) ORDER BY i.product_id),  -- 0: none (an answer only; the trigger records the lines' own)
           (array_agg(i.product_id ORDER BY i.product_id) FILTER (WHERE p.discontinued))[1],
           sum(p.price_amount::numeric * i.quantity)
      INTO product_ids, names, unit_prices, quantities, minimum_ages, v_discontinued, v_sum
      FROM cart_items i JOIN products p ON p.id = i.product_id
     WHERE i.customer_id = p_customer;
    IF product_ids IS NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'FC000', MESSAGE = 'cart_empty';
    END IF;
    IF v_discontinued IS NOT NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'FC000', MESSAGE = 'product_discontinued',
            DETAIL = json_build_object('productId', v_discontinued)::text;
    END IF;
    IF v_sum >= 9223372036854775807 THEN
        RAISE EXCEPTION USING ERRCODE = 'FC000', MESSAGE = 'total_too_large';
    END IF;
    total := v_sum;

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

    IF p_slot_start IS NOT NULL AND NOT take_slot_place(p_store, p_slot_start, p_slot_capacity) THEN
        RAISE EXCEPTION USING ERRCODE = 'FC000', MESSAGE = 'slot_full';
    END IF;

    INSERT INTO orders (id, store_id, customer_id, payment_method, total_amount, currency, idempotency_key, request_hash,
                        pickup_slot_start, pickup_slot_end)
    SELECT p_order, p_store, p_customer, p_method, total, s.currency, p_key, p_hash, p_slot_start, p_slot_end
      FROM stores s WHERE s.id = p_store
    RETURNING orders.number, orders.created_at INTO number, created_at;
    INSERT INTO order_lines (store_id, order_id, product_id, name, unit_price, quantity)
    SELECT p_store, p_order, u.product_id, u.name, u.price, u.quantity
      FROM unnest(product_ids, names, unit_prices, quantities) AS u(product_id, name, price, quantity);
    INSERT INTO order_events (store_id, order_id, from_status, to_status, actor_id)
    VALUES (p_store, p_order, NULL, 'pending', p_customer);
    INSERT INTO pickup_tokens (store_id, order_id, key_id, text, expires_at)
    VALUES (p_store, p_order, p_token_key, p_token_text, p_token_expires);
    DELETE FROM cart_items WHERE customer_id = p_customer;
END
$$;
