-- The pickers `p_store`'s rota plans for the hour holding `p_at` (local, in the calendar's zone;
-- an hour the rota does not name has its default), as slot_work_capacity counts them. NULL: the
-- store has no rota or no calendar.
CREATE OR REPLACE FUNCTION store_pickers_at(p_store uuid, p_at timestamptz)
RETURNS integer LANGUAGE plpgsql STABLE AS $$
BEGIN
    RETURN (SELECT coalesce(h.pickers, r.default_pickers)
            FROM store_rotas r
            JOIN store_calendars c ON c.store_id = r.store_id
            LEFT JOIN store_rota_hours h
                   ON h.store_id = r.store_id
                  AND h.weekday = extract(isodow FROM p_at AT TIME ZONE c.time_zone)::integer
                  AND h.hour = extract(hour FROM p_at AT TIME ZONE c.time_zone)::integer
            WHERE r.store_id = p_store);
END
$$;
