-- When the sale that sets `p_product`'s price at `p_store` now ends: the running sale's end
-- (store_sales) while its price is below the regular one (store_regular_price), so while
-- store_price answers it; NULL when no sale sets the price. A listing shows it, with the regular
-- price, beside a sale price.
CREATE OR REPLACE FUNCTION store_sale_ends_at(p_product uuid, p_store uuid) RETURNS timestamptz LANGUAGE sql STABLE AS $$
    SELECT s.ends_at FROM store_sales s
     WHERE s.store_id = p_store AND s.product_id = p_product AND s.starts_at <= now() AND now() < s.ends_at
       AND s.price_amount < store_regular_price(p_product, p_store)
$$;
