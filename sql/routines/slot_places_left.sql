-- How many places a pickup slot of `p_capacity` orders has left when `p_booked` are taken (NULL:
-- none taken yet, the slot has no counter row): never below zero, since a lower capacity leaves
-- the places already booked where they are. A place can be taken while this is above zero.
--
-- The one statement of that rule (issue 43): take_slot_room asks it (through slot_refusal) under the counter row's
-- lock (checkout and moving an order), and the public slot list asks it for every slot it shows
-- (SlotBookingQueries.placesLeft, for PickupSlots.available: the API's `remaining` and the shop's
-- "full" / "1 place left"). Swift does not compute places; SlotPlacesAgreementTests checks that
-- the list's answer is how many places take_slot_room then gives.
--
-- SQL, IMMUTABLE, not STRICT: the planner inlines it into the statement that calls it.
CREATE OR REPLACE FUNCTION slot_places_left(p_capacity integer, p_booked integer)
RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT greatest(p_capacity - coalesce(p_booked, 0), 0)
$$;
