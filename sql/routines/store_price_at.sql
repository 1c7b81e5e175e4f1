-- The price of `p_product` at `p_store` as it was at `p_at`: store_price's rule (a running
-- sale's when lower, else the regular price) applied to that moment. A sale counts when it ran
-- then and had been made by then (an ended sale keeps its past in store_sales). A listing
-- sorted by price orders by it at the moment of its first page, so a price that moves between
-- pages never shows a product twice or never; the price it shows is today's (store_price).
CREATE OR REPLACE FUNCTION store_price_at(p_product uuid, p_store uuid, p_at timestamptz) RETURNS bigint
LANGUAGE sql STABLE AS $$
    SELECT least(
        (SELECT s.price_amount FROM store_sales s
          WHERE s.store_id = p_store AND s.product_id = p_product AND s.starts_at <= p_at AND p_at < s.ends_at
            AND s.created_at <= p_at),
        store_regular_price_at(p_product, p_store, p_at))
$$;
