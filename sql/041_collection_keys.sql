-- Issue 29: a collection scan sent again (its answer lost in a failover) must answer as it did
-- the first time. A scan may carry an Idempotency-Key; the order keeps the key of the scan that
-- handed it over (collect_order_keyed).
ALTER TABLE orders ADD COLUMN collection_key text CHECK (length(collection_key) BETWEEN 1 AND 255);
