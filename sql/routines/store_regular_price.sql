-- The regular price of `p_product` at `p_store`: the store's own when it sets one
-- (store_prices), or else the catalogue's. NULL for an unknown product. A listing shows it beside
-- the price while a sale runs (store_price).
CREATE OR REPLACE FUNCTION store_regular_price(p_product uuid, p_store uuid) RETURNS bigint LANGUAGE sql STABLE AS $$
    SELECT coalesce(
        (SELECT sp.price_amount FROM store_prices sp WHERE sp.store_id = p_store AND sp.product_id = p_product),
        (SELECT p.price_amount FROM products p WHERE p.id = p_product))
$$;
