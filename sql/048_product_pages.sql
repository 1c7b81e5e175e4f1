-- Product pages (issue 45). A product has a stable, shareable address, /shop/products/{slug}:
-- its name in lower case with anything not a letter or digit as a hyphen, then the first eight
-- hex digits of its id, so two products of one name never share one and a rename keeps the
-- address it had (product_slug sets it when a product is made; nothing changes it after).
-- And a product has several images, ordered (position 0 is the one listings show and
-- /v1/products/{id}/image serves), each with its text alternative.
ALTER TABLE products ADD COLUMN slug text;
-- product_slug's rule (sql/routines/product_slug.sql), written out: routines come after the
-- numbered migrations.
UPDATE products SET slug = coalesce(nullif(left(btrim(regexp_replace(lower(translate(name, '''’', '')), '[^a-z0-9]+', '-', 'g'), '-'), 60), ''), 'product')
                           || '-' || left(replace(id::text, '-', ''), 8);
ALTER TABLE products ALTER COLUMN slug SET NOT NULL;
ALTER TABLE products ADD CONSTRAINT products_slug_key UNIQUE (slug);

ALTER TABLE product_images ADD COLUMN position smallint NOT NULL DEFAULT 0 CHECK (position BETWEEN 0 AND 9);
ALTER TABLE product_images ADD COLUMN alt_text text NOT NULL DEFAULT '' CHECK (length(alt_text) <= 300);
ALTER TABLE product_images DROP CONSTRAINT product_images_pkey;
ALTER TABLE product_images ADD PRIMARY KEY (product_id, position);
