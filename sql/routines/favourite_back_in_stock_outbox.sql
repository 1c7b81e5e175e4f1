-- `favourite.back_in_stock`: what a customer can order went from none to some at the store
-- they shop at; one event per customer who favourited the product.
CREATE OR REPLACE FUNCTION favourite_back_in_stock_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    fan record;
    product jsonb := (SELECT jsonb_build_object('id', p.id, 'sku', p.sku, 'name', p.name) FROM products p
                      WHERE p.id = NEW.product_id AND NOT p.discontinued);
BEGIN
    IF product IS NULL THEN
        RETURN NULL;
    END IF;
    FOR fan IN
        SELECT f.user_id FROM favourites f JOIN customer_stores c ON c.user_id = f.user_id
        WHERE f.product_id = NEW.product_id AND c.store_id = NEW.store_id
        ORDER BY f.user_id
    LOOP
        PERFORM emit_event(NEW.store_id, 'favourite.back_in_stock', NULL, jsonb_build_object(
            'customerId', fan.user_id, 'product', product, 'available', NEW.on_hand - NEW.reserved));
    END LOOP;
    RETURN NULL;
END $$;
