-- Learns a store's pick estimate from its own recorded picks (issue 47), kept simple and honest:
-- over the completed pick lists of the last 28 days that took between 30 s and 4 h (from the
-- list's creation, when its picker set off, to its last recorded pick), the store's speed is
-- the time they took over the time the defaults (pick_estimate_defaults) would give the same stops,
-- lines and units. Each default is scaled by that ratio, bounded to 0.25..4 (a rushed or
-- forgotten list moves it a little, never wildly). Fewer than 10 such lists: the estimate
-- goes back to the defaults. Run by PUT rota (RotaQueries.replace: the console and the seed too).
-- Returns the pick lists it learned from.
CREATE OR REPLACE FUNCTION learn_pick_estimate(p_store uuid)
RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
    v_batches integer;
    v_ratio numeric;
BEGIN
    WITH walked AS (
        SELECT extract(epoch FROM max(p.picked_at) - b.created_at) AS seconds,
               count(DISTINCT p.order_id) AS stops,
               count(DISTINCT (p.order_id, p.product_id)) AS lines,
               sum(p.quantity) AS units
          FROM pick_lists b JOIN picks p ON p.pick_list_id = b.id AND p.store_id = b.store_id
         WHERE b.store_id = p_store AND b.status = 'completed' AND b.completed_at > now() - interval '28 days'
         GROUP BY b.id, b.created_at
    )
    SELECT count(*), sum(w.seconds) / nullif(sum(d.per_order_seconds * w.stops + d.per_line_seconds * w.lines
                                                 + d.per_unit_seconds * greatest(w.units - w.lines, 0)), 0)
      INTO v_batches, v_ratio
      FROM walked w CROSS JOIN pick_estimate_defaults() d WHERE w.seconds BETWEEN 30 AND 14400;
    IF v_batches < 10 OR v_ratio IS NULL THEN
        DELETE FROM store_pick_estimates WHERE store_id = p_store;
        RETURN v_batches;
    END IF;
    v_ratio := least(greatest(v_ratio, 0.25), 4);
    INSERT INTO store_pick_estimates (store_id, per_order_seconds, per_line_seconds, per_unit_seconds, batches, learned_at)
    SELECT p_store, greatest(round(d.per_order_seconds * v_ratio), 1), round(d.per_line_seconds * v_ratio),
           round(d.per_unit_seconds * v_ratio), v_batches, now()
      FROM pick_estimate_defaults() d
    ON CONFLICT (store_id) DO UPDATE SET
        per_order_seconds = excluded.per_order_seconds, per_line_seconds = excluded.per_line_seconds,
        per_unit_seconds = excluded.per_unit_seconds, batches = excluded.batches, learned_at = excluded.learned_at;
    RETURN v_batches;
END
$$;
