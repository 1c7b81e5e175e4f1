-- A store's calendar as one row of 11 columns: its settings, then its opening ranges and closures
-- as arrays (CalendarQueries.calendar(in:from:) decodes them). No row: the store has no calendar.
--
-- PL/pgSQL, so PostgreSQL keeps its plans per connection (issue 15: PostgresNIO sends every
-- statement unnamed, and planning cost more than running for most of the hot reads).
CREATE OR REPLACE FUNCTION store_calendar(p_store uuid)
RETURNS TABLE (time_zone text, slot_minutes integer, capacity integer, lead_minutes integer, horizon_days integer,
               grace_minutes integer, weekdays integer[], opens integer[], closes integer[], closure_days integer[],
               closure_reasons text[])
LANGUAGE plpgsql STABLE ROWS 1 AS $$
BEGIN
    RETURN QUERY
    SELECT k.time_zone, k.slot_minutes, k.capacity, k.lead_minutes, k.horizon_days, k.grace_minutes,
           ARRAY(SELECT h.weekday FROM store_opening_hours h WHERE h.store_id = k.store_id ORDER BY h.weekday, h.opens_minute),
           ARRAY(SELECT h.opens_minute FROM store_opening_hours h WHERE h.store_id = k.store_id ORDER BY h.weekday, h.opens_minute),
           ARRAY(SELECT h.closes_minute FROM store_opening_hours h WHERE h.store_id = k.store_id ORDER BY h.weekday, h.opens_minute),
           ARRAY(SELECT (d.date - DATE '1970-01-01')::int4 FROM store_closures d WHERE d.store_id = k.store_id ORDER BY d.date),
           ARRAY(SELECT d.reason FROM store_closures d WHERE d.store_id = k.store_id ORDER BY d.date)
    FROM store_calendars k WHERE k.store_id = p_store;
END
$$;
