-- A timestamp as the API writes it: ISO 8601, UTC, whole seconds.
CREATE OR REPLACE FUNCTION api_time(t timestamptz) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
$$;
