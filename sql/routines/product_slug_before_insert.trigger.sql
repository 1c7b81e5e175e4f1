-- A product's shop address is set as it is made (set_product_slug, migration 048).
CREATE OR REPLACE TRIGGER product_slug_before_insert BEFORE INSERT ON products
    FOR EACH ROW EXECUTE FUNCTION set_product_slug();
