-- A new store without a jurisdiction takes its currency's: GBP the United Kingdom's VAT, JMD
-- Jamaica's GCT. Another currency's store shows no tax until its admin sets one.
CREATE OR REPLACE FUNCTION store_tax_default() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.tax_jurisdiction IS NULL THEN
        NEW.tax_jurisdiction := CASE NEW.currency WHEN 'GBP' THEN 'GB' WHEN 'JMD' THEN 'JM' END;
    END IF;
    RETURN NEW;
END
$$;
