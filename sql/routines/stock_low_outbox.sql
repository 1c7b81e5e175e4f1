-- `stock.low`: on hand fell to the reorder point (the reorder report's rule) from above it
-- (stock_low_outbox.trigger.sql, at commit).
CREATE OR REPLACE FUNCTION stock_low_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM emit_event(NEW.store_id, 'stock.low', NULL, jsonb_build_object(
        'product', (SELECT jsonb_build_object('id', p.id, 'sku', p.sku, 'name', p.name) FROM products p WHERE p.id = NEW.product_id),
        'onHand', NEW.on_hand, 'reserved', NEW.reserved, 'available', NEW.on_hand - NEW.reserved,
        'minSupply', NEW.min_supply));
    RETURN NULL;
END $$;
