-- Every way a line is written captures the minimum age at its store at that moment
-- (minimum_age_at: the chain's or the store's stricter one), as it captures name and price.
CREATE OR REPLACE FUNCTION order_line_minimum_age() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    NEW.minimum_age := minimum_age_at(NEW.store_id, NEW.product_id);
    RETURN NEW;
END
$$;
