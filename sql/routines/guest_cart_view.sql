-- A visitor's cart (GuestCartQueries.cart) in cart_view's columns, so the service reads both
-- alike: one row per line priced at the cart's store (store_price) and checked against its stock
-- now, or one row of NULL lines for an empty or unknown cart (then `p_store`, the store the
-- visitor chose, names the store). A guest cart has no coupon (coupons are for accounts) and
-- each line the store's default substitution. A cart unused for 3 days is not read.
CREATE OR REPLACE FUNCTION guest_cart_view(p_token_hash bytea, p_store uuid)
RETURNS TABLE (store_id uuid, currency text, product_id uuid, name text, price_amount bigint, quantity integer,
               available integer, discontinued boolean, line_discount bigint, coupon_json text,
               substitution text, substitute_ids uuid[])
LANGUAGE sql STABLE AS $$
    WITH cart AS (
        SELECT g.id, g.store_id FROM guest_carts g
         WHERE g.token_hash = p_token_hash AND g.updated_at > now() - interval '3 days'
    ), store AS (
        SELECT s.id, s.currency::text AS currency, s.substitution_default FROM stores s
         WHERE s.id = coalesce((SELECT cart.store_id FROM cart), p_store)
    )
    SELECT store.id, store.currency, l.product_id, l.name, l.price_amount, l.quantity, l.available, l.discontinued,
           CASE WHEN l.product_id IS NOT NULL THEN 0::bigint END, NULL::text,
           CASE WHEN l.product_id IS NOT NULL THEN coalesce(store.substitution_default, 'none') END,
           CASE WHEN l.product_id IS NOT NULL THEN '{}'::uuid[] END
    FROM (SELECT 1) AS one
    LEFT JOIN store ON true
    LEFT JOIN LATERAL (
        SELECT i.product_id, p.name, store_price(i.product_id, store.id) AS price_amount, i.quantity,
               coalesce(st.on_hand - st.reserved, 0) AS available, p.discontinued, i.added_at
        FROM cart JOIN guest_cart_items i ON i.cart_id = cart.id
        JOIN products p ON p.id = i.product_id
        LEFT JOIN stock st ON st.store_id = store.id AND st.product_id = i.product_id
    ) AS l ON true
    ORDER BY l.added_at, l.product_id
$$;
