-- 030_sales_and_new_arrivals: a store's sales, the price a customer was shown, and when a
-- product joined a store's range (issue 26).
--
-- A sale is a product's price at one store from a start to an end. Sales of one product at one
-- store never overlap (the exclusion constraint), so at any moment at most one runs; ending a
-- sale early sets its end to now, so the past stays as it was. store_price() (routines) answers
-- the sale price while one runs, and never more than the regular price.
CREATE EXTENSION IF NOT EXISTS btree_gist;

CREATE TABLE store_sales (
    id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    store_id      uuid NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
    product_id    uuid NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    -- Minor units in the product's currency, at most Money.maximumPrice as the contract says.
    price_amount  bigint NOT NULL CHECK (price_amount BETWEEN 0 AND 10000000000),
    starts_at     timestamptz NOT NULL,
    ends_at       timestamptz NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    -- A manager, or NULL for the command line and the demo.
    created_by    uuid REFERENCES users (id) ON DELETE SET NULL,
    -- Set when a manager ended it early (ends_at then became that moment).
    ended_by      uuid REFERENCES users (id) ON DELETE SET NULL,
    CONSTRAINT store_sales_ends_after_start CHECK (ends_at > starts_at),
    UNIQUE (store_id, id),
    CONSTRAINT store_sales_no_overlap
        EXCLUDE USING gist (store_id WITH =, product_id WITH =, tstzrange(starts_at, ends_at) WITH &&)
);

CREATE INDEX store_sales_store_ends ON store_sales (store_id, ends_at);

-- The price the customer was last shown for a cart line: set when the line is written and when
-- the cart is read. Checkout charges it or refuses with price_changed, never anything else.
ALTER TABLE cart_items ADD COLUMN quoted_price bigint CHECK (quoted_price >= 0);
UPDATE cart_items i SET quoted_price = coalesce(
    (SELECT sp.price_amount FROM store_prices sp JOIN carts c ON c.store_id = sp.store_id
      WHERE c.customer_id = i.customer_id AND sp.product_id = i.product_id),
    (SELECT p.price_amount FROM products p WHERE p.id = i.product_id));

-- When a product joined the store's range (its stock row was made): "new" is within the
-- store's window. Rows made before this migration count from the product's creation.
ALTER TABLE stock ADD COLUMN added_at timestamptz;
UPDATE stock s SET added_at = p.created_at FROM products p WHERE p.id = s.product_id;
ALTER TABLE stock ALTER COLUMN added_at SET DEFAULT now(), ALTER COLUMN added_at SET NOT NULL;
CREATE INDEX stock_store_added ON stock (store_id, added_at DESC, product_id);

ALTER TABLE stores ADD COLUMN new_arrival_window interval NOT NULL DEFAULT interval '14 days'
    CHECK (new_arrival_window BETWEEN interval '1 day' AND interval '365 days');
