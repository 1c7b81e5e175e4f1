-- Finding an order (issue 46): staff search their store's orders, newest first, by number,
-- the customer's name or email, or a scanned receipt (`OrderQueries.search`); the reports read
-- a store's orders by when they were placed. Both walk a store's orders by time.
CREATE INDEX orders_store_created ON orders (store_id, created_at DESC, id DESC);
