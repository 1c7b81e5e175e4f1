-- The price of `p_product` at `p_store`, in the product's minor units: the store's own when it
-- sets one (store_prices), or else the catalogue's. NULL for an unknown product. Everything that
-- shows or charges a price (search, product, cart, checkout, pick sheets, best price) asks this.
CREATE OR REPLACE FUNCTION store_price(p_product uuid, p_store uuid) RETURNS bigint LANGUAGE sql STABLE AS $$
    SELECT coalesce(
        (SELECT sp.price_amount FROM store_prices sp WHERE sp.store_id = p_store AND sp.product_id = p_product),
        (SELECT p.price_amount FROM products p WHERE p.id = p_product))
$$;
