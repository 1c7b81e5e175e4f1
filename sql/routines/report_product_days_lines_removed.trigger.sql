-- report_product_days_lines, for order lines removed (one aggregate a statement).
CREATE OR REPLACE TRIGGER report_product_days_lines_removed AFTER DELETE ON order_lines
REFERENCING OLD TABLE AS removed FOR EACH STATEMENT
EXECUTE FUNCTION report_product_days_lines();
