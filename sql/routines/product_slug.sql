-- A product's address in the shop (migration 048): "jamaican-ackee-540g-1f2e3d4c". At most 60
-- characters of the name, so an address stays short enough to share.
CREATE OR REPLACE FUNCTION product_slug(p_name text, p_id uuid) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN coalesce(nullif(left(btrim(regexp_replace(lower(translate(p_name, '''’', '')), '[^a-z0-9]+', '-', 'g'), '-'), 60), ''), 'product')
       || '-' || left(replace(p_id::text, '-', ''), 8);
