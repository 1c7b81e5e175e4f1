-- Puts several lines into `p_customer`'s cart in one statement, each added to what the cart
-- already holds (never duplicated; a product named twice adds twice to one line), at the cart's
-- store (cart_store: its own, else the store they chose). A recipe's ingredients
-- (add_recipe_to_cart) and an order bought again (CartQueries.addLines) come through here. The
-- cart row is locked first (set_cart_line's and place_order's order: the cart, then its lines),
-- so the lines change together or not at all.
--
-- `p_items`: a JSON array of {"index", "text", "productId" (null: names no product), "quantity"}.
-- Answers JSON: {"storeId", "added": [...], "notAdded": [...]}, each entry the item with the
-- product's "name", added ones with "cartQuantity" (the line now), the others with "reason":
--   no_product     the item names no product
--   discontinued   the product is discontinued
--   not_carried    the store has no stock of it (not in its range)
--   out_of_stock   fewer on hand (less reserved) than the line would then hold: "available"
--   quantity_limit the line would pass 99 units
-- or {"code": "no_store_chosen"}.
CREATE OR REPLACE FUNCTION add_to_cart(p_customer uuid, p_items json)
RETURNS json LANGUAGE plpgsql AS $$
DECLARE
    v_store uuid;
    v_added json[] := '{}';
    v_not json[] := '{}';
    v_line record;
    v_now integer;
BEGIN
    v_store := cart_store(p_customer);
    IF v_store IS NULL THEN
        RETURN json_build_object('code', 'no_store_chosen');
    END IF;
    INSERT INTO carts AS c (customer_id, store_id) VALUES (p_customer, v_store)
    ON CONFLICT (customer_id) DO UPDATE SET updated_at = now();
    PERFORM 1 FROM carts c WHERE c.customer_id = p_customer FOR UPDATE;

    FOR v_line IN
        SELECT i.index, i.text, i.quantity, p.id AS product_id, p.name, p.discontinued,
               st.product_id IS NOT NULL AS carried, coalesce(st.on_hand - st.reserved, 0) AS available
          FROM json_to_recordset(p_items) AS i(index integer, text text, "productId" uuid, quantity integer)
          LEFT JOIN products p ON p.id = i."productId"
          LEFT JOIN stock st ON st.store_id = v_store AND st.product_id = i."productId"
         ORDER BY i.index
    LOOP
        IF v_line.product_id IS NULL THEN
            v_not := v_not || json_build_object('index', v_line.index, 'text', v_line.text, 'reason', 'no_product');
            CONTINUE;
        END IF;
        v_now := v_line.quantity + coalesce((SELECT c.quantity FROM cart_items c
                                              WHERE c.customer_id = p_customer AND c.product_id = v_line.product_id), 0);
        IF v_line.discontinued THEN
            v_not := v_not || json_build_object('index', v_line.index, 'text', v_line.text, 'productId', v_line.product_id,
                                                'name', v_line.name, 'quantity', v_line.quantity, 'reason', 'discontinued');
        ELSIF NOT v_line.carried THEN
            v_not := v_not || json_build_object('index', v_line.index, 'text', v_line.text, 'productId', v_line.product_id,
                                                'name', v_line.name, 'quantity', v_line.quantity, 'reason', 'not_carried');
        ELSIF v_line.available < v_now THEN
            v_not := v_not || json_build_object('index', v_line.index, 'text', v_line.text, 'productId', v_line.product_id,
                                                'name', v_line.name, 'quantity', v_line.quantity, 'reason', 'out_of_stock',
                                                'available', greatest(v_line.available, 0));
        ELSIF v_now > 99 THEN
            v_not := v_not || json_build_object('index', v_line.index, 'text', v_line.text, 'productId', v_line.product_id,
                                                'name', v_line.name, 'quantity', v_line.quantity, 'reason', 'quantity_limit');
        ELSE
            INSERT INTO cart_items AS c (customer_id, product_id, quantity, quoted_price)
            VALUES (p_customer, v_line.product_id, v_line.quantity, store_price(v_line.product_id, v_store))
            ON CONFLICT (customer_id, product_id) DO UPDATE
                SET quantity = c.quantity + EXCLUDED.quantity, quoted_price = EXCLUDED.quoted_price;
            v_added := v_added || json_build_object('index', v_line.index, 'text', v_line.text, 'productId', v_line.product_id,
                                                    'name', v_line.name, 'quantity', v_line.quantity, 'cartQuantity', v_now);
        END IF;
    END LOOP;
    RETURN json_build_object('storeId', v_store, 'added', array_to_json(v_added), 'notAdded', array_to_json(v_not));
END
$$;
