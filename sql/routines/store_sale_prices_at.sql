-- The products on sale at `p_store` at `p_at` with their sale and regular prices then: exactly
-- store_prices_at's rows whose price is below the regular price (a test holds them equal), found
-- from the store's sales running then instead of its whole range. The offers page lists a few
-- dozen of the sales; pricing all 100,000 stocked products to find them was two thirds of its
-- time (issue 45's shop-bench).
CREATE OR REPLACE FUNCTION store_sale_prices_at(p_store uuid, p_at timestamptz)
RETURNS TABLE (product_id uuid, price_amount bigint, regular_amount bigint) LANGUAGE sql STABLE AS $$
    SELECT r.product_id, r.sale_amount, r.regular_amount
    FROM (
        SELECT ss.product_id, ss.price_amount AS sale_amount,
               coalesce(sph.price_amount, cph.price_amount, store_regular_price(ss.product_id, p_store)) AS regular_amount
        FROM store_sales ss
        JOIN stock st ON st.store_id = p_store AND st.product_id = ss.product_id
        LEFT JOIN store_price_history sph ON sph.store_id = p_store AND sph.product_id = ss.product_id AND sph.valid @> p_at
        LEFT JOIN catalogue_price_history cph ON cph.product_id = ss.product_id AND cph.valid @> p_at
        WHERE ss.store_id = p_store AND ss.starts_at <= p_at AND p_at < ss.ends_at AND ss.created_at <= p_at
    ) r
    WHERE r.sale_amount < r.regular_amount
$$;
