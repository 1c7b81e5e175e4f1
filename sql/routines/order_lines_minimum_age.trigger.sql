-- Every way a line is written captures the minimum age at its store at that moment
-- (order_line_minimum_age).
CREATE OR REPLACE TRIGGER order_lines_minimum_age BEFORE INSERT ON order_lines
FOR EACH ROW EXECUTE FUNCTION order_line_minimum_age();
