-- Signing in or signing up with a guest cart (GuestCartQueries.merge): its lines go into the
-- account's cart through add_to_cart (added to what is there, in one statement, all or none),
-- each capped so the line stays within 99; the account's cart keeps its store, or, with none,
-- takes the guest cart's. A line the account's store cannot sell now is named, not added (what
-- add_to_cart answers). The guest cart is deleted either way. Answers add_to_cart's JSON, or
-- NULL when there is no live guest cart under the token.
CREATE OR REPLACE FUNCTION merge_guest_cart(p_customer uuid, p_token_hash bytea)
RETURNS json LANGUAGE plpgsql AS $$
DECLARE
    v_cart guest_carts;
    v_items json;
BEGIN
    SELECT g.* INTO v_cart FROM guest_carts g
     WHERE g.token_hash = p_token_hash AND g.updated_at > now() - interval '3 days' FOR UPDATE;
    IF v_cart.id IS NULL THEN
        RETURN NULL;
    END IF;
    IF cart_store(p_customer) IS NULL THEN
        INSERT INTO carts (customer_id, store_id) VALUES (p_customer, v_cart.store_id) ON CONFLICT (customer_id) DO NOTHING;
    END IF;
    SELECT coalesce(json_agg(json_build_object(
               'index', n, 'text', x.name, 'productId', x.product_id,
               'quantity', least(x.quantity, 99 - coalesce(c.quantity, 0))) ORDER BY n), '[]')
      INTO v_items
      FROM (SELECT i.product_id, i.quantity, p.name, row_number() OVER (ORDER BY i.added_at, i.product_id) AS n
              FROM guest_cart_items i JOIN products p ON p.id = i.product_id
             WHERE i.cart_id = v_cart.id) x
      LEFT JOIN cart_items c ON c.customer_id = p_customer AND c.product_id = x.product_id
     WHERE coalesce(c.quantity, 0) < 99;
    DELETE FROM guest_carts g WHERE g.id = v_cart.id;
    RETURN add_to_cart(p_customer, v_items);
END
$$;
