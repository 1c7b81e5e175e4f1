-- Every new product gets its address (product_slug) as it is made; a rename never changes it
-- (product_slug_before_insert).
CREATE OR REPLACE FUNCTION set_product_slug() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.slug := coalesce(NEW.slug, product_slug(NEW.name, NEW.id));
    RETURN NEW;
END
$$;
