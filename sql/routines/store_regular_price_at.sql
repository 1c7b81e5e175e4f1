-- The regular price of `p_product` at `p_store` as it was at `p_at` (the store's own then, or
-- else the catalogue's then), from the price history (migration 032). Before any recorded
-- price, today's. A listing sorted by price orders by it at the moment of its first page.
CREATE OR REPLACE FUNCTION store_regular_price_at(p_product uuid, p_store uuid, p_at timestamptz) RETURNS bigint
LANGUAGE sql STABLE AS $$
    SELECT coalesce(
        (SELECT h.price_amount FROM store_price_history h
          WHERE h.store_id = p_store AND h.product_id = p_product AND h.valid @> p_at),
        (SELECT h.price_amount FROM catalogue_price_history h WHERE h.product_id = p_product AND h.valid @> p_at),
        store_regular_price(p_product, p_store))
$$;
