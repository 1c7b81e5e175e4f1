-- How a slot looks to a customer (issue 47): 'full' when it cannot take even the smallest order
-- (`p_smallest_work`: one line of one unit), with `full_because` 'places' or 'work'
-- (slot_refusal, the rule taking a place asks); 'filling' once more than 75 % of its places or of
-- its pickers' work is booked; else 'available'.
-- A table of one row, so the planner inlines it into the slot list's statement.
CREATE OR REPLACE FUNCTION slot_status(p_capacity integer, p_booked integer, p_work_capacity integer,
                                       p_work_booked bigint, p_smallest_work integer)
RETURNS TABLE (status text, full_because text)
LANGUAGE sql IMMUTABLE PARALLEL SAFE ROWS 1 AS $$
    SELECT CASE
               WHEN r.why IS NOT NULL THEN 'full'
               WHEN coalesce(p_booked, 0)::bigint * 4 > p_capacity::bigint * 3
                 OR (p_work_capacity IS NOT NULL AND coalesce(p_work_booked, 0) * 4 > p_work_capacity::bigint * 3) THEN 'filling'
               ELSE 'available'
           END,
           r.why
    FROM (SELECT slot_refusal(p_capacity, p_booked, p_work_capacity, p_work_booked, p_smallest_work) AS why) r
$$;
