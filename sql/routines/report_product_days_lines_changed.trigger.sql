-- report_product_days_lines, for order lines changed (one aggregate a statement).
CREATE OR REPLACE TRIGGER report_product_days_lines_changed AFTER UPDATE ON order_lines
REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT
EXECUTE FUNCTION report_product_days_lines();
