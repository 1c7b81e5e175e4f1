-- Sets a cart line (CartQueries.setQuantity): the cart row is made at the chosen store or
-- touched, and the line written, only for a product that exists and is on sale; quantity 0
-- removes the line. `p_substitution` (none, best_match, specific with `p_substitute_ids`; the
-- service checks them) sets the line's preference; NULL leaves it as it is (the store's default
-- for a new line). A NULL customer (a caller the service will refuse) writes nothing. Returns
-- whether the product is discontinued (NULL: no such product) and whether the line was written.
--
-- PL/pgSQL, so PostgreSQL keeps its plans per connection (issue 15: PostgresNIO sends every
-- statement unnamed, and planning cost more than running for most of the hot reads).
CREATE OR REPLACE FUNCTION set_cart_line(
    p_customer uuid, p_product uuid, p_quantity integer, p_substitution text DEFAULT NULL, p_substitute_ids uuid[] DEFAULT NULL)
RETURNS TABLE (discontinued boolean, written boolean) LANGUAGE plpgsql ROWS 1 AS $$
DECLARE
    v_discontinued boolean;
    v_store uuid;
BEGIN
    SELECT p.discontinued INTO v_discontinued FROM products p WHERE p.id = p_product;
    IF p_customer IS NULL THEN
        RETURN QUERY SELECT v_discontinued, false;
        RETURN;
    END IF;
    IF p_quantity = 0 THEN
        DELETE FROM cart_items i WHERE i.customer_id = p_customer AND i.product_id = p_product;
        RETURN QUERY SELECT CASE WHEN v_discontinued IS NOT NULL THEN false END, true;
        RETURN;
    END IF;
    IF v_discontinued IS DISTINCT FROM false THEN
        RETURN QUERY SELECT v_discontinued, false;
        RETURN;
    END IF;
    v_store := cart_store(p_customer);
    IF v_store IS NULL THEN
        RETURN QUERY SELECT false, false;
        RETURN;
    END IF;
    INSERT INTO carts AS c (customer_id, store_id) VALUES (p_customer, v_store)
    ON CONFLICT (customer_id) DO UPDATE SET updated_at = now();
    -- The line's price as the answer shows it (SALES, issue 26: cart_view then records every line's).
    INSERT INTO cart_items AS i (customer_id, product_id, quantity, quoted_price, substitution, substitute_ids)
    VALUES (p_customer, p_product, p_quantity, store_price(p_product, v_store), p_substitution, coalesce(p_substitute_ids, '{}'))
    ON CONFLICT (customer_id, product_id) DO UPDATE SET quantity = EXCLUDED.quantity, quoted_price = EXCLUDED.quoted_price,
        substitution = CASE WHEN p_substitution IS NULL THEN i.substitution ELSE EXCLUDED.substitution END,
        substitute_ids = CASE WHEN p_substitution IS NULL THEN i.substitute_ids ELSE EXCLUDED.substitute_ids END;
    RETURN QUERY SELECT false, true;
END
$$;
