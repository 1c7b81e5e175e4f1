-- One place in a pickup slot, unless `capacity` are taken: a conditional upsert, so racers wait
-- on the counter row and then see the winner's count (never overbooked). False when full.
-- Checkout (place_order) and moving an order to another slot (SlotBookingQueries.take) both use it.
CREATE OR REPLACE FUNCTION take_slot_place(p_store uuid, p_start timestamptz, p_capacity integer)
RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO pickup_slot_bookings AS b (store_id, slot_start, booked)
    VALUES (p_store, p_start, 1)
    ON CONFLICT (store_id, slot_start) DO UPDATE SET booked = b.booked + 1
    WHERE b.booked < p_capacity;
    RETURN FOUND;
END
$$;
