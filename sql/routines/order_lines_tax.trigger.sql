-- Every way a line is written captures its tax class and rate (order_line_tax).
CREATE OR REPLACE TRIGGER order_lines_tax BEFORE INSERT ON order_lines
FOR EACH ROW EXECUTE FUNCTION order_line_tax();
