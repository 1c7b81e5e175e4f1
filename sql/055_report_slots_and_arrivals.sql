-- The on-time report (issue 46) walks a store's orders by the start of their pickup slot, over a
-- range of days (`ReportQueries.onTime`), reading the status and the times an order was placed,
-- packed and handed over from the index alone (INCLUDE), not a year of order rows. The board's
-- `orders_store_slot` (migration 011) holds only open orders; this one every order with a slot.
CREATE INDEX orders_store_slot_report ON orders (store_id, pickup_slot_start)
    INCLUDE (status, created_at, packaged_at, completed_at) WHERE pickup_slot_start IS NOT NULL;

-- The desk report walks them by when the customer said "I'm here" (`ReportQueries.desk`), with
-- the hand-over time from the index alone. `orders_store_arrived` (migration 036) holds only the
-- orders still waiting at the desk; this one every arrival.
CREATE INDEX orders_store_arrival_report ON orders (store_id, arrived_at) INCLUDE (completed_at) WHERE arrived_at IS NOT NULL;
