-- 058_pick_work_capacity (issue 47, "slots the store can keep"): a slot's capacity counted in pick
-- work (seconds) as well as in orders.
--
-- An order's work is estimated from its lines (order_pick_work: per order + per line + per extra
-- unit, the store's learned estimate or the defaults) and booked into its slot's counter row with
-- its place, by the same conditional upsert (take_slot_room), so racing checkouts on any number of
-- instances never book more work than the slot's pickers can do (slot_work_capacity: the rota's
-- pickers over the slot's time, at 80 % utilisation). A store without a rota counts places only,
-- as before, while still recording each order's work.

-- The manager's plan: pickers per hour of the week. Hours the plan does not name have
-- `default_pickers`. No row: the store has no rota and its slots count places only.
CREATE TABLE store_rotas (
    store_id         uuid PRIMARY KEY REFERENCES stores (id),
    default_pickers  integer NOT NULL DEFAULT 1 CHECK (default_pickers BETWEEN 0 AND 50),
    updated_at       timestamptz NOT NULL DEFAULT now()
);

-- An hour of the week (ISO weekday 1 Monday .. 7 Sunday, local hour 0..23 in the store's calendar
-- zone) with its own number of pickers.
CREATE TABLE store_rota_hours (
    store_id  uuid NOT NULL REFERENCES store_rotas (store_id),
    weekday   integer NOT NULL CHECK (weekday BETWEEN 1 AND 7),
    hour      integer NOT NULL CHECK (hour BETWEEN 0 AND 23),
    pickers   integer NOT NULL CHECK (pickers BETWEEN 0 AND 50),
    PRIMARY KEY (store_id, weekday, hour)
);

-- What the store's own recorded picks say one order takes (learn_pick_estimate). No row: the
-- defaults (pick_estimate_defaults).
CREATE TABLE store_pick_estimates (
    store_id           uuid PRIMARY KEY REFERENCES stores (id),
    per_order_seconds  integer NOT NULL CHECK (per_order_seconds BETWEEN 1 AND 3600),
    per_line_seconds   integer NOT NULL CHECK (per_line_seconds BETWEEN 0 AND 600),
    per_unit_seconds   integer NOT NULL CHECK (per_unit_seconds BETWEEN 0 AND 600),
    -- The completed pick lists of the last 28 days it was learned from.
    batches            integer NOT NULL CHECK (batches >= 0),
    learned_at         timestamptz NOT NULL DEFAULT now()
);

-- The work booked into each slot, next to its places, on the same counter row and under the same
-- row lock. Orders booked before 058 hold a place and no work.
ALTER TABLE pickup_slot_bookings ADD COLUMN work_seconds bigint NOT NULL DEFAULT 0 CHECK (work_seconds >= 0);

-- The work an order booked into its slot, given back exactly when it leaves the slot (cancelled,
-- expired, moved). NULL: an order without a slot, or booked before 058 (it holds no work).
ALTER TABLE orders ADD COLUMN pick_work_seconds integer CHECK (pick_work_seconds >= 0);

-- take_slot_place(store, start, capacity) counted places only; take_slot_room replaces it.
DROP FUNCTION take_slot_place(uuid, timestamptz, integer);
