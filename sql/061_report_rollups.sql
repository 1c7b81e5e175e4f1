-- 061_report_rollups: the reports over a year of a busy store in under a second (issue 46).
-- Measured at a million orders, the products report read every line of the year's orders (44 s)
-- and the picking report every pick of the year's lists (5.9 s). Both now read small tables
-- kept by triggers as the data changes (sql/routines/report_*.sql), in the writer's own
-- transaction, so checkout makes no extra round trip and every instance sees the same numbers:
--
-- * report_product_days: per store, per day of the store's calendar (the day an order was
--   placed, in the store's zone as `ReportQueries.products` chose it), per product and per kind
--   (orders not cancelled, or cancelled: never collected), what the lines hold now: lines
--   holding any, units (held_quantity) and amount (order_line_amount). Kept by increments
--   (INSERT ... ON CONFLICT DO UPDATE adding a difference), never read and written back, so
--   concurrent checkouts into one product's day add up.
-- * pick_lists.lines and .short_lines: a completed list's distinct lines picked and those short,
--   counted once when it is completed (and again if a pick of a completed list changes).
-- * stock_outages: when a product's available stock (on hand less what open orders hold) fell
--   to zero and when it came back, so past out-of-stock hours are known from now on.

CREATE TABLE report_product_days (
    store_id     uuid NOT NULL REFERENCES stores (id),
    day          date NOT NULL,
    -- The lines of cancelled orders (never collected), else of the orders not cancelled.
    uncollected  boolean NOT NULL,
    product_id   uuid NOT NULL,
    lines        bigint NOT NULL DEFAULT 0,
    units        bigint NOT NULL DEFAULT 0,
    amount       bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (store_id, day, uncollected, product_id)
) WITH (fillfactor = 80);

ALTER TABLE pick_lists ADD COLUMN lines integer, ADD COLUMN short_lines integer;

CREATE TABLE stock_outages (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    store_id    uuid NOT NULL,
    product_id  uuid NOT NULL,
    began_at    timestamptz NOT NULL,
    -- Null while it lasts.
    ended_at    timestamptz,
    FOREIGN KEY (store_id, product_id) REFERENCES stock (store_id, product_id) ON DELETE CASCADE,
    CHECK (ended_at IS NULL OR ended_at >= began_at)
);
-- At most one outage open per stock row; the report reads a store's outages by when they began.
CREATE UNIQUE INDEX stock_outages_open ON stock_outages (store_id, product_id) WHERE ended_at IS NULL;
CREATE INDEX stock_outages_store_began ON stock_outages (store_id, began_at) INCLUDE (product_id, ended_at);

-- The picking report reads a year's completed lists with their counts from the index alone.
CREATE INDEX pick_lists_store_completed_counts ON pick_lists (store_id, completed_at) INCLUDE (created_at, lines, short_lines)
    WHERE status = 'completed';
DROP INDEX pick_lists_store_completed;

-- ---- what is there already ----------------------------------------------------------------------
-- Writers wait while this runs (the triggers come with the routines, in the same start).
LOCK TABLE orders, order_lines, pick_lists, picks, stock, store_calendars IN SHARE MODE;

-- A line counts as report_line_held counts it; that routine, like the held_quantity and
-- order_line_amount it uses, comes after the numbered migrations, so this reads the two that a
-- database in use has already (one made from nothing has no lines to count).
DO $$
BEGIN
    IF to_regprocedure('order_line_amount(order_lines, integer)') IS NOT NULL THEN
        EXECUTE $count$
            INSERT INTO report_product_days (store_id, day, uncollected, product_id, lines, units, amount)
            SELECT o.store_id, (o.created_at AT TIME ZONE coalesce(c.time_zone, 'UTC'))::date, o.status = 'cancelled', l.product_id,
                   count(*), sum(h.units),
                   sum(CASE WHEN h.units = l.quantity THEN l.unit_price * l.quantity - l.discount_amount
                            ELSE order_line_amount(l, h.units) END)
            FROM orders o
            LEFT JOIN store_calendars c ON c.store_id = o.store_id
            JOIN order_lines l ON l.order_id = o.id
            CROSS JOIN LATERAL (SELECT held_quantity(l, o.status NOT IN ('pending', 'cancelled')) AS units) h
            WHERE h.units > 0
            GROUP BY 1, 2, 3, 4
        $count$;
    END IF;
END $$;

UPDATE pick_lists l SET lines = x.lines, short_lines = x.short
FROM (SELECT p.pick_list_id, count(DISTINCT (p.order_id, p.product_id)) AS lines,
             count(DISTINCT (p.order_id, p.product_id)) FILTER (WHERE p.short) AS short
      FROM picks p GROUP BY p.pick_list_id) x
WHERE l.id = x.pick_list_id AND l.status = 'completed';
UPDATE pick_lists SET lines = 0, short_lines = 0 WHERE status = 'completed' AND lines IS NULL;

-- What is out of stock now is out from now: when it ran out before is not known.
INSERT INTO stock_outages (store_id, product_id, began_at)
SELECT store_id, product_id, now() FROM stock WHERE on_hand - reserved <= 0;
