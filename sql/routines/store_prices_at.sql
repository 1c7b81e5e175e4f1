-- Every product `p_store` carries (a stock row) with its price and regular price there as they
-- were at `p_at`: store_price_at and store_regular_price_at for the whole range in one set-based
-- pass (hash joins over the price history, not two lookups a row), for a listing that sorts
-- or filters the store's range by the prices at its moment. The same rule as those two (a test
-- holds them equal): a sale running then and made by then, when lower; else the store's own
-- price then, else the catalogue's then, else today's.
CREATE OR REPLACE FUNCTION store_prices_at(p_store uuid, p_at timestamptz)
RETURNS TABLE (product_id uuid, price_amount bigint, regular_amount bigint) LANGUAGE sql STABLE AS $$
    SELECT r.product_id, least(ss.price_amount, r.regular_amount), r.regular_amount
    FROM (
        SELECT st.product_id, coalesce(sph.price_amount, cph.price_amount, store_regular_price(st.product_id, p_store)) AS regular_amount
        FROM stock st
        LEFT JOIN store_price_history sph ON sph.store_id = p_store AND sph.product_id = st.product_id AND sph.valid @> p_at
        LEFT JOIN catalogue_price_history cph ON cph.product_id = st.product_id AND cph.valid @> p_at
        WHERE st.store_id = p_store
    ) r
    LEFT JOIN store_sales ss
        ON ss.store_id = p_store AND ss.product_id = r.product_id AND ss.starts_at <= p_at AND p_at < ss.ends_at AND ss.created_at <= p_at
$$;
