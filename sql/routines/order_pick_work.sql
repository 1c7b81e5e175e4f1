-- The pick work of an order of `p_lines` lines and `p_units` units in all at a store, in seconds
-- (store_pick_estimate): per order + per line × lines + per unit × the units beyond each line's
-- first. Bounded to 0..86400 (a day) whatever it is given, so no sum overflows.
--
-- PL/pgSQL, so PostgreSQL keeps its plan per connection (issue 15): checkout asks it every time.
CREATE OR REPLACE FUNCTION order_pick_work(p_store uuid, p_lines bigint, p_units bigint)
RETURNS integer LANGUAGE plpgsql STABLE AS $$
BEGIN
    RETURN (SELECT least(e.per_order_seconds::numeric + e.per_line_seconds::numeric * greatest(p_lines, 0)
                         + e.per_unit_seconds::numeric * greatest(p_units - p_lines, 0), 86400)::integer
            FROM store_pick_estimate(p_store) e);
END
$$;
