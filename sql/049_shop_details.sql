-- 049: what the shop shows about categories and stores (issue 45).
-- Categories gain a description and a picture (issue 45): a product's category stays the text
-- on the product (products.category, what search filters by); this keeps what a shop shows
-- about one. The picture is one of the category's products' (its first image), chosen by the
-- chain, so no second image store is needed.
CREATE TABLE category_details (
    name             text PRIMARY KEY CHECK (length(btrim(name)) BETWEEN 1 AND 100),
    description      text NOT NULL DEFAULT '' CHECK (length(description) <= 1000),
    image_product_id uuid REFERENCES products (id) ON DELETE SET NULL,
    updated_at       timestamptz NOT NULL DEFAULT now()
);

-- The store finder (issue 45) shows each store's telephone number.
ALTER TABLE stores ADD COLUMN phone text NOT NULL DEFAULT '' CHECK (length(phone) <= 40);
