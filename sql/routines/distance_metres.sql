-- The great-circle distance in metres between two places given in degrees (haversine, on a
-- sphere of the Earth's mean radius, 6,371,008.8 m: within half a percent of the ellipsoid,
-- plenty to say which store is nearer). NULL when any coordinate is (STRICT: least() would
-- otherwise skip the NULL and answer half the Earth). The sine term is capped at 1 so rounding
-- on antipodal points never takes asin out of its domain.
CREATE OR REPLACE FUNCTION distance_metres(lat1 double precision, lng1 double precision, lat2 double precision, lng2 double precision)
RETURNS double precision LANGUAGE sql IMMUTABLE STRICT AS $$
    SELECT 2 * 6371008.8 * asin(least(1, sqrt(
        power(sin(radians(lat2 - lat1) / 2), 2)
        + cos(radians(lat1)) * cos(radians(lat2)) * power(sin(radians(lng2 - lng1) / 2), 2))))
$$;
