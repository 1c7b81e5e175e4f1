-- Records a product's catalogue price in catalogue_price_history when it is made or changes:
-- the open row ends now and the new price holds from now. Times are the clock's at the change
-- (not the transaction's start), so two changes of one product, one after the other under its
-- row lock, never overlap.
CREATE OR REPLACE FUNCTION catalogue_price_history_record() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    v_at timestamptz;
BEGIN
    IF TG_OP = 'UPDATE' AND NEW.price_amount = OLD.price_amount THEN
        RETURN NULL;
    END IF;
    SELECT greatest(clock_timestamp(), max(lower(h.valid))) INTO v_at
    FROM catalogue_price_history h WHERE h.product_id = NEW.id AND upper_inf(h.valid);
    -- A second change in the same instant replaces the first.
    DELETE FROM catalogue_price_history h WHERE h.product_id = NEW.id AND upper_inf(h.valid) AND lower(h.valid) = v_at;
    UPDATE catalogue_price_history h SET valid = tstzrange(lower(h.valid), v_at)
    WHERE h.product_id = NEW.id AND upper_inf(h.valid);
    INSERT INTO catalogue_price_history (product_id, price_amount, valid) VALUES (NEW.id, NEW.price_amount, tstzrange(v_at, NULL));
    RETURN NULL;
END
$$;
