-- Sets a line of a visitor's cart (GuestCartQueries.setQuantity), making the cart at `p_store`
-- under `p_token_hash` if it has none (or only an expired one), within the bounds of
-- migration 047. `p_add`: add `p_quantity` to the line instead of setting it. Quantity 0
-- removes the line. Answers one code: ok, product_not_found, discontinued, invalid_quantity
-- (the line would pass 99), cart_full (a 51st line), too_many_carts (the 21st cart from this
-- address today), store_not_found.
CREATE OR REPLACE FUNCTION set_guest_cart_line(
    p_token_hash bytea, p_store uuid, p_address text, p_product uuid, p_quantity integer, p_add boolean)
RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    v_cart uuid;
    v_discontinued boolean;
    v_now integer;
BEGIN
    SELECT p.discontinued INTO v_discontinued FROM products p WHERE p.id = p_product;
    IF v_discontinued IS NULL THEN
        RETURN 'product_not_found';
    END IF;
    SELECT g.id INTO v_cart FROM guest_carts g
     WHERE g.token_hash = p_token_hash AND g.updated_at > now() - interval '3 days' FOR UPDATE;
    IF v_cart IS NULL THEN
        IF p_quantity = 0 THEN
            RETURN 'ok';
        END IF;
        IF NOT EXISTS (SELECT 1 FROM stores s WHERE s.id = p_store) THEN
            RETURN 'store_not_found';
        END IF;
        -- Carts nobody used for 3 days go as new ones come (their lines with them).
        DELETE FROM guest_carts g WHERE g.updated_at <= now() - interval '3 days';
        IF (SELECT count(*) FROM guest_carts g
             WHERE g.client_address = p_address AND g.created_at > now() - interval '1 day') >= 20 THEN
            RETURN 'too_many_carts';
        END IF;
        INSERT INTO guest_carts (token_hash, store_id, client_address) VALUES (p_token_hash, p_store, p_address)
        RETURNING id INTO v_cart;
    END IF;
    UPDATE guest_carts g SET updated_at = now() WHERE g.id = v_cart;
    v_now := p_quantity + CASE WHEN p_add THEN coalesce(
        (SELECT i.quantity FROM guest_cart_items i WHERE i.cart_id = v_cart AND i.product_id = p_product), 0) ELSE 0 END;
    IF v_now = 0 THEN
        DELETE FROM guest_cart_items i WHERE i.cart_id = v_cart AND i.product_id = p_product;
        RETURN 'ok';
    END IF;
    IF v_discontinued THEN
        RETURN 'discontinued';
    END IF;
    IF v_now > 99 THEN
        RETURN 'invalid_quantity';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM guest_cart_items i WHERE i.cart_id = v_cart AND i.product_id = p_product)
       AND (SELECT count(*) FROM guest_cart_items i WHERE i.cart_id = v_cart) >= 50 THEN
        RETURN 'cart_full';
    END IF;
    INSERT INTO guest_cart_items AS i (cart_id, product_id, quantity) VALUES (v_cart, p_product, v_now)
    ON CONFLICT (cart_id, product_id) DO UPDATE SET quantity = EXCLUDED.quantity;
    RETURN 'ok';
END
$$;
