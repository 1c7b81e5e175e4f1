-- Finding an order and the reports (issue 46) walk a store's orders by when they were placed:
-- staff search them newest first by number, the customer's name or email, or a scanned receipt
-- (`OrderQueries.search`); the sales report counts a range of days of them (`ReportQueries`),
-- reading the status and total from the index alone (INCLUDE), not a year of order rows.
CREATE INDEX orders_store_created ON orders (store_id, created_at, id) INCLUDE (status, total_amount);
