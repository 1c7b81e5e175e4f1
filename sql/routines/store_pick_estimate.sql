-- What picking one order takes at a store (issue 47): seconds per order (per stop on the walk),
-- per line and per unit beyond the first of a line. The store's learned estimate
-- (store_pick_estimates, written by learn_pick_estimate) or else the defaults
-- (pick_estimate_defaults); `batches` is 0 and `learned_at` NULL for the defaults. A table of one
-- row, so the planner inlines it into the statement that reads it (checkout's among them).
CREATE OR REPLACE FUNCTION store_pick_estimate(p_store uuid)
RETURNS TABLE (per_order_seconds integer, per_line_seconds integer, per_unit_seconds integer, batches integer,
               learned_at timestamptz)
LANGUAGE sql STABLE ROWS 1 AS $$
    SELECT coalesce(e.per_order_seconds, d.per_order_seconds), coalesce(e.per_line_seconds, d.per_line_seconds),
           coalesce(e.per_unit_seconds, d.per_unit_seconds), coalesce(e.batches, 0), e.learned_at
    FROM pick_estimate_defaults() d LEFT JOIN store_pick_estimates e ON e.store_id = p_store
$$;
