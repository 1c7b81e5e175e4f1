-- Records a store's own price in store_price_history when it is set, changed or removed: the
-- open row ends now, and a set or changed price holds from now (a removed one leaves the
-- catalogue's to hold). Clock times, as catalogue_price_history_record.
CREATE OR REPLACE FUNCTION store_price_history_record() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    v_at timestamptz := clock_timestamp();
BEGIN
    IF TG_OP = 'UPDATE' AND (NEW.store_id, NEW.product_id, NEW.price_amount) = (OLD.store_id, OLD.product_id, OLD.price_amount) THEN
        RETURN NULL;
    END IF;
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        SELECT greatest(v_at, max(lower(h.valid))) INTO v_at FROM store_price_history h
        WHERE h.store_id = OLD.store_id AND h.product_id = OLD.product_id AND upper_inf(h.valid);
        DELETE FROM store_price_history h
        WHERE h.store_id = OLD.store_id AND h.product_id = OLD.product_id AND upper_inf(h.valid) AND lower(h.valid) = v_at;
        UPDATE store_price_history h SET valid = tstzrange(lower(h.valid), v_at)
        WHERE h.store_id = OLD.store_id AND h.product_id = OLD.product_id AND upper_inf(h.valid);
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        SELECT greatest(v_at, max(upper(h.valid))) INTO v_at FROM store_price_history h
        WHERE h.store_id = NEW.store_id AND h.product_id = NEW.product_id AND NOT upper_inf(h.valid);
        INSERT INTO store_price_history (store_id, product_id, price_amount, valid)
        VALUES (NEW.store_id, NEW.product_id, NEW.price_amount, tstzrange(v_at, NULL));
    END IF;
    RETURN NULL;
END
$$;
