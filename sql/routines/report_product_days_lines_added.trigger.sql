-- report_product_days_lines, for order lines added (one aggregate a statement).
CREATE OR REPLACE TRIGGER report_product_days_lines_added AFTER INSERT ON order_lines
REFERENCING NEW TABLE AS added FOR EACH STATEMENT
EXECUTE FUNCTION report_product_days_lines();
