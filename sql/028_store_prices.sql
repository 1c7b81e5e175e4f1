-- 028_store_prices: a product's price is the catalogue's unless its store sets its own (issue
-- 26). The store's manager sets it (PUT /v1/stores/{storeId}/prices/{productId}) or a CSV
-- import at that store does; removing the row goes back to the catalogue price. The currency is
-- always the product's, so only the amount is kept. Everything that shows or charges a price asks
-- store_price() (sql/routines/store_price.sql).

CREATE TABLE store_prices (
    store_id     uuid NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
    product_id   uuid NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    -- Minor units, at most Money.maximumPrice (100,000,000.00) as the contract says.
    price_amount bigint NOT NULL CHECK (price_amount BETWEEN 0 AND 10000000000),
    updated_at   timestamptz NOT NULL DEFAULT now(),
    -- Who set it: a manager, or NULL for an import or the command line.
    updated_by   uuid REFERENCES users (id) ON DELETE SET NULL,
    PRIMARY KEY (store_id, product_id)
);
