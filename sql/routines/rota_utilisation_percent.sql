-- The share of a rota's picker time counted as pick work (issue 47): 80 %. Pickers also hand
-- orders over at the desk, restock and take breaks; a slot booked to 100 % of their time would
-- be late the moment anything else happened. slot_work_capacity counts by it; the rota API shows it.
CREATE OR REPLACE FUNCTION rota_utilisation_percent()
RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT 80
$$;
