-- A place and `p_work` seconds of pick work in a pickup slot (issue 47), while it has room
-- (slot_refusal: a place left, and the work fits the pickers the rota plans, slot_work_capacity):
-- a conditional upsert of the slot's counter row, so racers wait on that row and then see the
-- winner's counts (never overbooked, in places or in work, on any number of instances). NULL when
-- taken; else why not: 'places' or 'work', read under the same lock.
-- Checkout (place_order) and moving an order to another slot (SlotBookingQueries.take) both use it.
CREATE OR REPLACE FUNCTION take_slot_room(p_store uuid, p_start timestamptz, p_end timestamptz, p_capacity integer,
                                          p_work integer)
RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    v_work_capacity integer := slot_work_capacity(p_store, p_start, p_end);
    v_why text;
BEGIN
    INSERT INTO pickup_slot_bookings AS b (store_id, slot_start, booked, work_seconds)
    SELECT p_store, p_start, 1, p_work WHERE slot_refusal(p_capacity, NULL, v_work_capacity, NULL, p_work) IS NULL
    ON CONFLICT (store_id, slot_start) DO UPDATE SET booked = b.booked + 1, work_seconds = b.work_seconds + p_work
    WHERE slot_refusal(p_capacity, b.booked, v_work_capacity, b.work_seconds, p_work) IS NULL;
    IF FOUND THEN
        RETURN NULL;
    END IF;
    -- Refused: the row, if any, is locked by the upsert; its counts say why.
    SELECT slot_refusal(p_capacity, b.booked, v_work_capacity, b.work_seconds, p_work) INTO v_why
      FROM pickup_slot_bookings b WHERE b.store_id = p_store AND b.slot_start = p_start;
    RETURN coalesce(v_why, slot_refusal(p_capacity, NULL, v_work_capacity, NULL, p_work), 'places');
END
$$;
