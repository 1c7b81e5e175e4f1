-- Why a slot cannot take an order of `p_work` seconds (issue 47), or NULL when it can: 'places'
-- when no place is left (slot_places_left), 'work' when the work booked (`p_work_booked`) plus
-- this order's would exceed what its pickers can do (`p_work_capacity`, slot_work_capacity; NULL:
-- the store has no rota, work is not limited). A slot with pickers and no work booked yet takes
-- one order whatever its size: an order larger than any slot could otherwise never be placed.
-- NULL booked counts (the slot has no counter row yet) are none.
--
-- The one statement of the rule: take_slot_room asks it under the counter row's lock, and
-- slot_status (the public slot list) asks it for the smallest order.
CREATE OR REPLACE FUNCTION slot_refusal(p_capacity integer, p_booked integer, p_work_capacity integer,
                                        p_work_booked bigint, p_work integer)
RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE
        WHEN slot_places_left(p_capacity, p_booked) = 0 THEN 'places'
        WHEN p_work_capacity IS NULL THEN NULL
        WHEN p_work_capacity <= 0 THEN 'work'
        WHEN coalesce(p_work_booked, 0) = 0 THEN NULL
        WHEN coalesce(p_work_booked, 0) + p_work > p_work_capacity THEN 'work'
    END
$$;
