-- What is available of a product at a store (on hand less what open orders hold) reached zero:
-- an outage begins; above zero again: the open one ends (stock_outages, migration 061). The
-- stock row is locked by its writer, so its outages are written one at a time. A sale takes
-- stock off without a ledger row; this is the record of when there was none to sell, read by
-- the products report's out-of-stock hours (issue 46).
CREATE OR REPLACE FUNCTION stock_outages_record() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.on_hand - NEW.reserved <= 0 THEN
        INSERT INTO stock_outages (store_id, product_id, began_at) VALUES (NEW.store_id, NEW.product_id, now())
        ON CONFLICT (store_id, product_id) WHERE ended_at IS NULL DO NOTHING;
    ELSE
        UPDATE stock_outages SET ended_at = greatest(now(), began_at)
        WHERE store_id = NEW.store_id AND product_id = NEW.product_id AND ended_at IS NULL;
    END IF;
    RETURN NULL;
END $$;
