-- The zone a store's report days are counted in: its calendar's, else UTC, as
-- `ReportQueries.store` chooses it for every report.
CREATE OR REPLACE FUNCTION report_zone(p_store uuid) RETURNS text LANGUAGE sql STABLE AS $$
    SELECT coalesce((SELECT c.time_zone FROM store_calendars c WHERE c.store_id = p_store), 'UTC')
$$;
