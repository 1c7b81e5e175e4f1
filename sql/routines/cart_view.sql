-- A customer's cart (CartQueries.cart): the cart's store, or else the store they chose for
-- browsing; then one row per line priced at that store (store_price: its own price, or else the
-- catalogue's) and checked against its stock now, or one row of NULL lines for an empty cart.
-- Each line's price is the one it records as shown (cart_items.quoted_price, SALES below):
-- checkout charges that price or refuses with price_changed (place_order).
-- Each row also carries the cart's coupon and the line's share of it (cart_coupon).
--
-- PL/pgSQL, so PostgreSQL keeps its plans per connection (issue 15: PostgresNIO sends every
-- statement unnamed, and planning cost more than running for most of the hot reads).
CREATE OR REPLACE FUNCTION cart_view(p_customer uuid)
RETURNS TABLE (store_id uuid, currency text, product_id uuid, name text, price_amount bigint, quantity integer,
               available integer, discontinued boolean,
               -- The cart's coupon (issue 26, COUPONS): this line's share of its discount, and the
               -- coupon as JSON text on every row (NULL without one): sql/routines/cart_coupon.sql.
               line_discount bigint, coupon_json text,
               -- The line's substitution preference (issue 27): its own, else the store's default.
               substitution text, substitute_ids uuid[])
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    v_store uuid := cart_store(p_customer);
BEGIN
    -- SALES (issue 26): the price guarantee. A line's quoted_price is the price the customer was
    -- last shown. Reading the cart shows each line's price now (store_price: a sale that started
    -- or ended, a store price changed) and records it as shown, so checkout charges what this read
    -- answered. Only lines whose price moved are written, holding the cart row's lock first (the
    -- lock order of set_cart_line and place_order: the cart, then its lines).
    IF EXISTS (SELECT 1 FROM cart_items i WHERE i.customer_id = p_customer
                AND i.quoted_price IS DISTINCT FROM store_price(i.product_id, v_store)) THEN
        PERFORM 1 FROM carts c WHERE c.customer_id = p_customer FOR UPDATE;
        UPDATE cart_items i SET quoted_price = store_price(i.product_id, v_store)
         WHERE i.customer_id = p_customer AND i.quoted_price IS DISTINCT FROM store_price(i.product_id, v_store);
    END IF;
    -- End of SALES' part.
    RETURN QUERY
    WITH store AS (
        SELECT s.id, s.currency::text AS currency, s.substitution_default FROM stores s WHERE s.id = cart_store(p_customer)
    )
    SELECT store.id, store.currency, l.product_id, l.name, l.price_amount, l.quantity, l.available, l.discontinued,
           -- The cart's coupon (COUPONS): the line's share, the coupon.
           coalesce(cc.discounts[array_position(cc.product_ids, l.product_id)], 0)::bigint, cc.coupon,
           CASE WHEN l.product_id IS NOT NULL THEN coalesce(l.substitution, store.substitution_default, 'none') END, l.substitute_ids
    FROM (SELECT 1) AS one
    LEFT JOIN store ON true
    LEFT JOIN LATERAL (
        SELECT i.product_id, p.name, coalesce(i.quoted_price, store_price(i.product_id, store.id)) AS price_amount, i.quantity, coalesce(st.on_hand - st.reserved, 0) AS available,
               p.discontinued, i.added_at, i.substitution, i.substitute_ids
        FROM cart_items i
        JOIN products p ON p.id = i.product_id
        LEFT JOIN stock st ON st.store_id = store.id AND st.product_id = i.product_id
        WHERE i.customer_id = p_customer
    ) AS l ON true
    -- The cart's coupon (COUPONS): one row or none, joined to every row.
    LEFT JOIN LATERAL cart_coupon(p_customer, store.id) AS cc ON true
    ORDER BY l.added_at, l.product_id;
END
$$;
