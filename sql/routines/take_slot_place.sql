-- One place in a pickup slot, while it has places left (slot_places_left, the one statement of
-- that rule; the public slot list asks it too): a conditional upsert, so racers wait on the
-- counter row and then see the winner's count (never overbooked). False when full.
-- Checkout (place_order) and moving an order to another slot (SlotBookingQueries.take) both use it.
CREATE OR REPLACE FUNCTION take_slot_place(p_store uuid, p_start timestamptz, p_capacity integer)
RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO pickup_slot_bookings AS b (store_id, slot_start, booked)
    SELECT p_store, p_start, 1 WHERE slot_places_left(p_capacity, NULL) > 0
    ON CONFLICT (store_id, slot_start) DO UPDATE SET booked = b.booked + 1
    WHERE slot_places_left(p_capacity, b.booked) > 0;
    RETURN FOUND;
END
$$;
