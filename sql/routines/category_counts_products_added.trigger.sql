-- category_counts_products_added, once per statement that adds products.
CREATE OR REPLACE TRIGGER category_counts_products_added AFTER INSERT ON products
REFERENCING NEW TABLE AS added FOR EACH STATEMENT
EXECUTE FUNCTION category_counts_products_added();
