-- Every way a line is written keeps its product's tax class and the rate in force at its store
-- that day (tax_rate_at), as it keeps name, price and minimum age: a later rate change never
-- changes a past order. A store without a jurisdiction leaves both null (no tax shown).
CREATE OR REPLACE FUNCTION order_line_tax() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    v_jurisdiction text;
    v_class text;
BEGIN
    SELECT s.tax_jurisdiction INTO v_jurisdiction FROM stores s WHERE s.id = NEW.store_id;
    IF v_jurisdiction IS NULL THEN
        NEW.tax_class := NULL;
        NEW.tax_rate_bp := NULL;
        RETURN NEW;
    END IF;
    SELECT p.tax_class INTO v_class FROM products p WHERE p.id = NEW.product_id;
    NEW.tax_rate_bp := tax_rate_at(v_jurisdiction, v_class, current_date);
    NEW.tax_class := CASE WHEN NEW.tax_rate_bp IS NULL THEN NULL ELSE v_class END;
    RETURN NEW;
END
$$;
