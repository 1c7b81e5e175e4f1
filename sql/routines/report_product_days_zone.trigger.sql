-- report_product_days_zone, for a store's calendar made, its zone changed or the calendar gone.
CREATE OR REPLACE TRIGGER report_product_days_zone AFTER INSERT OR UPDATE OF time_zone OR DELETE ON store_calendars
FOR EACH ROW EXECUTE FUNCTION report_product_days_zone();
