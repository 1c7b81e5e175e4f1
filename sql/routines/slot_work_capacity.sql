-- The pick work a slot of `p_store` from `p_start` to `p_end` can take, in seconds (issue 47): for
-- each quarter hour of the slot, the pickers the rota plans for that hour of the week (local, in
-- the calendar's zone; hours it does not name have its default) times the seconds of the slot in
-- it, at the utilisation rota_utilisation_percent gives (80 %: pickers also hand orders over,
-- restock and take breaks).
-- NULL: the store has no rota (or no calendar), and its slots count places only.
--
-- PL/pgSQL, so PostgreSQL keeps its plan per connection (issue 15): as SQL it was planned at every
-- call, ten times the cost, and checkout and the slot list (once per slot) ask it.
CREATE OR REPLACE FUNCTION slot_work_capacity(p_store uuid, p_start timestamptz, p_end timestamptz)
RETURNS integer LANGUAGE plpgsql STABLE AS $$
BEGIN
    RETURN (SELECT (sum(coalesce(h.pickers, r.default_pickers)
                * extract(epoch FROM least(q.at + interval '15 minutes', p_end) - greatest(q.at, p_start)))
            * rota_utilisation_percent() / 100)::integer
    FROM store_rotas r
    JOIN store_calendars c ON c.store_id = r.store_id
    CROSS JOIN LATERAL generate_series(date_trunc('hour', p_start), p_end - interval '1 microsecond', interval '15 minutes') q(at)
    LEFT JOIN store_rota_hours h
           ON h.store_id = r.store_id
          AND h.weekday = extract(isodow FROM q.at AT TIME ZONE c.time_zone)::integer
          AND h.hour = extract(hour FROM q.at AT TIME ZONE c.time_zone)::integer
    WHERE r.store_id = p_store AND q.at + interval '15 minutes' > p_start
    GROUP BY r.store_id);
END
$$;
