-- report_product_days_orders, for orders updated (one aggregate a statement: a sweep expiring
-- many orders takes its rows in the key's order like any other writer).
CREATE OR REPLACE TRIGGER report_product_days_orders AFTER UPDATE ON orders
REFERENCING OLD TABLE AS before NEW TABLE AS after FOR EACH STATEMENT
EXECUTE FUNCTION report_product_days_orders();
