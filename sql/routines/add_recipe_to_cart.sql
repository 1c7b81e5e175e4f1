-- POST /v1/recipes/{id}/add-to-cart in one statement (RecipeQueries.addToCart): every linked
-- ingredient of the recipe, not skipped, goes into `p_customer`'s cart at the cart's store
-- (cart_store: its own, else the store they chose), scaled from the recipe's servings to
-- `p_servings` and rounded up to whole units. A line already in the cart is added to, never
-- duplicated (an ingredient named twice adds twice to one line). The cart row is locked first
-- (set_cart_line's and place_order's order: the cart, then its lines), so the lines change
-- together or not at all.
--
-- Answers JSON: {"storeId", "servings", "added": [...], "notAdded": [...]}, each entry
-- {"index", "text", "productId", "name", "quantity"} (the units it asked for), added ones with
-- "cartQuantity" (the line now), the others with "reason":
--   no_product     the ingredient names no product
--   discontinued   the product is discontinued
--   not_carried    the store has no stock of it (not in its range)
--   out_of_stock   fewer on hand (less reserved) than the line would then hold: "available"
--   quantity_limit the line would pass 99 units
-- or a refusal: {"code": "recipe_not_found"} (none, or hidden from this customer),
-- {"code": "no_store_chosen"}, {"code": "unknown_ingredient", "index": n} (skip names none).
CREATE OR REPLACE FUNCTION add_recipe_to_cart(p_customer uuid, p_recipe uuid, p_servings integer, p_skip integer[])
RETURNS json LANGUAGE plpgsql AS $$
DECLARE
    v_recipe recipes;
    v_store uuid;
    v_servings integer;
    v_missing integer;
    v_added json[] := '{}';
    v_not json[] := '{}';
    v_line record;
    v_wanted integer;
    v_now integer;
BEGIN
    SELECT r.* INTO v_recipe FROM recipes r
     WHERE r.id = p_recipe AND (r.hidden_at IS NULL OR r.author_id = p_customer);
    IF v_recipe.id IS NULL THEN
        RETURN json_build_object('code', 'recipe_not_found');
    END IF;
    SELECT s.n INTO v_missing FROM unnest(coalesce(p_skip, '{}')) AS s(n)
     WHERE NOT EXISTS (SELECT 1 FROM recipe_ingredients g WHERE g.recipe_id = p_recipe AND g.position = s.n)
     LIMIT 1;
    IF v_missing IS NOT NULL THEN
        RETURN json_build_object('code', 'unknown_ingredient', 'index', v_missing);
    END IF;
    v_store := cart_store(p_customer);
    IF v_store IS NULL THEN
        RETURN json_build_object('code', 'no_store_chosen');
    END IF;
    v_servings := coalesce(p_servings, v_recipe.servings);
    INSERT INTO carts AS c (customer_id, store_id) VALUES (p_customer, v_store)
    ON CONFLICT (customer_id) DO UPDATE SET updated_at = now();
    PERFORM 1 FROM carts c WHERE c.customer_id = p_customer FOR UPDATE;

    FOR v_line IN
        SELECT g.position, g.text, g.product_id, p.name, p.discontinued, coalesce(g.quantity, 1) AS quantity,
               st.product_id IS NOT NULL AS carried, coalesce(st.on_hand - st.reserved, 0) AS available
          FROM recipe_ingredients g
          LEFT JOIN products p ON p.id = g.product_id
          LEFT JOIN stock st ON st.store_id = v_store AND st.product_id = g.product_id
         WHERE g.recipe_id = p_recipe AND NOT (g.position = ANY (coalesce(p_skip, '{}')))
         ORDER BY g.position
    LOOP
        -- Whole units for the servings asked, never fewer than the recipe's share of them.
        v_wanted := ceil(v_line.quantity::numeric * v_servings / v_recipe.servings)::integer;
        IF v_line.product_id IS NULL THEN
            v_not := v_not || json_build_object('index', v_line.position, 'text', v_line.text, 'reason', 'no_product');
            CONTINUE;
        END IF;
        v_now := v_wanted + coalesce((SELECT i.quantity FROM cart_items i
                                        WHERE i.customer_id = p_customer AND i.product_id = v_line.product_id), 0);
        IF v_line.discontinued THEN
            v_not := v_not || json_build_object('index', v_line.position, 'text', v_line.text, 'productId', v_line.product_id,
                                                'name', v_line.name, 'quantity', v_wanted, 'reason', 'discontinued');
        ELSIF NOT v_line.carried THEN
            v_not := v_not || json_build_object('index', v_line.position, 'text', v_line.text, 'productId', v_line.product_id,
                                                'name', v_line.name, 'quantity', v_wanted, 'reason', 'not_carried');
        ELSIF v_line.available < v_now THEN
            v_not := v_not || json_build_object('index', v_line.position, 'text', v_line.text, 'productId', v_line.product_id,
                                                'name', v_line.name, 'quantity', v_wanted, 'reason', 'out_of_stock',
                                                'available', greatest(v_line.available, 0));
        ELSIF v_now > 99 THEN
            v_not := v_not || json_build_object('index', v_line.position, 'text', v_line.text, 'productId', v_line.product_id,
                                                'name', v_line.name, 'quantity', v_wanted, 'reason', 'quantity_limit');
        ELSE
            INSERT INTO cart_items AS i (customer_id, product_id, quantity, quoted_price)
            VALUES (p_customer, v_line.product_id, v_wanted, store_price(v_line.product_id, v_store))
            ON CONFLICT (customer_id, product_id) DO UPDATE
                SET quantity = i.quantity + EXCLUDED.quantity, quoted_price = EXCLUDED.quoted_price;
            v_added := v_added || json_build_object('index', v_line.position, 'text', v_line.text, 'productId', v_line.product_id,
                                                    'name', v_line.name, 'quantity', v_wanted, 'cartQuantity', v_now);
        END IF;
    END LOOP;
    RETURN json_build_object('storeId', v_store, 'servings', v_servings,
                             'added', array_to_json(v_added), 'notAdded', array_to_json(v_not));
END
$$;
