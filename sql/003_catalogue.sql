-- 003_catalogue: product images, customers' favourites and chosen store, and the indexes
-- the catalogue's listings page through (keyset pagination, the reorder report).

-- One image per product, stored in the database so every instance serves the same bytes.
-- The service checks the kind by magic bytes and the size before it gets here.
CREATE TABLE product_images (
    product_id    uuid PRIMARY KEY REFERENCES products (id),
    content_type  text NOT NULL CHECK (content_type IN ('image/png', 'image/jpeg')),
    bytes         bytea NOT NULL CHECK (length(bytes) BETWEEN 1 AND 2097152),
    sha256        bytea NOT NULL CHECK (length(sha256) = 32),
    updated_at    timestamptz NOT NULL DEFAULT now()
);

-- A customer's wish list; availability is read from stock when it is listed.
CREATE TABLE favourites (
    user_id     uuid NOT NULL REFERENCES users (id),
    product_id  uuid NOT NULL REFERENCES products (id),
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, product_id)
);

CREATE INDEX favourites_newest ON favourites (user_id, created_at DESC, product_id);

-- The store a customer shops at: where favourites show availability.
CREATE TABLE customer_stores (
    user_id     uuid PRIMARY KEY REFERENCES users (id),
    store_id    uuid NOT NULL REFERENCES stores (id),
    updated_at  timestamptz NOT NULL DEFAULT now()
);

-- Listing the catalogue by name (empty search) pages on (lower(name), id).
CREATE INDEX products_name_order ON products (lower(name), id) WHERE NOT discontinued;

-- The reorder report: products at or below their minimum supply.
CREATE INDEX stock_low ON stock (store_id) WHERE on_hand <= min_supply;
