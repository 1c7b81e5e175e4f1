-- 032_price_history: the regular prices a product has had, in the catalogue and at each store,
-- with when each held (issue 26). A product listing sorted by price pins itself to the moment
-- of its first page (the cursor's asOf) and orders every later page by the prices of that
-- moment (store_price_at), so a price that moves between pages never makes a product show twice
-- or never. Triggers keep both tables (catalogue_price_history.trigger.sql,
-- store_price_history.trigger.sql); sales keep their own past in store_sales.
--
-- `valid` is [from, until): the open row (until infinity) is today's price. Rows of one product
-- (at one store) never overlap. A store price removed (back to the catalogue's) ends its row,
-- and the catalogue's holds again from then.
CREATE TABLE catalogue_price_history (
    product_id    uuid NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    price_amount  bigint NOT NULL CHECK (price_amount >= 0),
    valid         tstzrange NOT NULL CHECK (NOT isempty(valid)),
    CONSTRAINT catalogue_price_history_no_overlap EXCLUDE USING gist (product_id WITH =, valid WITH &&)
);

CREATE TABLE store_price_history (
    store_id      uuid NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
    product_id    uuid NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    price_amount  bigint NOT NULL CHECK (price_amount >= 0),
    valid         tstzrange NOT NULL CHECK (NOT isempty(valid)),
    CONSTRAINT store_price_history_no_overlap EXCLUDE USING gist (store_id WITH =, product_id WITH =, valid WITH &&)
);

-- What is known of the past: today's prices, since the product was made and since the store
-- set its own.
INSERT INTO catalogue_price_history (product_id, price_amount, valid)
SELECT id, price_amount, tstzrange(created_at, NULL) FROM products;
INSERT INTO store_price_history (store_id, product_id, price_amount, valid)
SELECT store_id, product_id, price_amount, tstzrange(updated_at, NULL) FROM store_prices;

-- The newest listing without a store orders by when products were made.
CREATE INDEX products_created ON products (created_at DESC, id);
