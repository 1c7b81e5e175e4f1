-- report_product_days_orders, for an order whose status, placing time or store changed (an
-- update of anything else costs nothing here).
CREATE OR REPLACE TRIGGER report_product_days_orders AFTER UPDATE OF status, created_at, store_id ON orders
FOR EACH ROW WHEN ((OLD.status, OLD.created_at, OLD.store_id) IS DISTINCT FROM (NEW.status, NEW.created_at, NEW.store_id))
EXECUTE FUNCTION report_product_days_orders();
