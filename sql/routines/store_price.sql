-- The price of `p_product` at `p_store` now, in the product's minor units: a running sale's
-- (store_sales) when it is lower, or else the regular price (store_regular_price). NULL for an
-- unknown product. Everything that shows or charges a price (search, product, cart, checkout,
-- pick sheets, best price) asks this.
CREATE OR REPLACE FUNCTION store_price(p_product uuid, p_store uuid) RETURNS bigint LANGUAGE sql STABLE AS $$
    SELECT least(
        (SELECT s.price_amount FROM store_sales s
          WHERE s.store_id = p_store AND s.product_id = p_product AND s.starts_at <= now() AND now() < s.ends_at),
        store_regular_price(p_product, p_store))
$$;
