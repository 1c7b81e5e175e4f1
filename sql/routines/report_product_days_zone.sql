-- A store's calendar made, or its zone changed: its report days are recounted in the new zone
-- (report_product_days_rebuild). Without a calendar a store's days are UTC's.
CREATE OR REPLACE FUNCTION report_product_days_zone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF (CASE WHEN TG_OP = 'INSERT' THEN 'UTC' ELSE OLD.time_zone END)
       IS DISTINCT FROM (CASE WHEN TG_OP = 'DELETE' THEN 'UTC' ELSE NEW.time_zone END) THEN
        PERFORM report_product_days_rebuild(CASE WHEN TG_OP = 'DELETE' THEN OLD.store_id ELSE NEW.store_id END);
    END IF;
    RETURN NULL;
END $$;
