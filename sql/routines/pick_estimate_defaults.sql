-- The pick estimate of a store with too few recorded picks to learn its own (issue 47), in
-- seconds; stated here only (store_pick_estimate and learn_pick_estimate ask it):
--   60 per order: fetching and labelling a tote, then bagging the order and shelving it for pickup;
--   20 per line: the walk to the next shelf, finding and scanning the product (pick lists walk
--      several orders at once in shelf order, so the walk between shelves is shared);
--    3 per unit beyond a line's first: another of the same from the same shelf.
-- A 20-line, 30-unit order is then 60 + 400 + 30 = 490 s, about eight minutes: in line with the
-- 100 or so items an hour reported for in-store grocery picking once packing is counted.
--
-- A table of one row, so the planner inlines it into the statement that reads it.
CREATE OR REPLACE FUNCTION pick_estimate_defaults()
RETURNS TABLE (per_order_seconds integer, per_line_seconds integer, per_unit_seconds integer)
LANGUAGE sql IMMUTABLE PARALLEL SAFE ROWS 1 AS $$
    SELECT 60, 20, 3
$$;
