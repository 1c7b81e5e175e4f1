-- 011_pickup_slots: a store's pickup calendar (time zone, opening hours, closures, slot length,
-- capacity, lead time, booking horizon, collection grace), the places booked per slot, and the
-- slot each order is collected in. A store without a calendar takes orders without slots.

CREATE TABLE store_calendars (
    store_id         uuid PRIMARY KEY REFERENCES stores (id),
    -- An IANA zone ("Europe/London"); the service checks it names a zone it knows.
    time_zone        text NOT NULL CHECK (length(time_zone) BETWEEN 1 AND 64),
    slot_minutes     integer NOT NULL DEFAULT 30 CHECK (slot_minutes BETWEEN 5 AND 240),
    -- Orders per slot.
    capacity         integer NOT NULL CHECK (capacity BETWEEN 1 AND 1000),
    -- The earliest slot starts at least this long after now.
    lead_minutes     integer NOT NULL DEFAULT 120 CHECK (lead_minutes BETWEEN 0 AND 20160),
    -- How far ahead a slot may start: now plus this many days.
    horizon_days     integer NOT NULL DEFAULT 7 CHECK (horizon_days BETWEEN 1 AND 60),
    -- How long after its slot's end an order can still be collected.
    grace_minutes    integer NOT NULL DEFAULT 1440 CHECK (grace_minutes BETWEEN 0 AND 20160),
    updated_at       timestamptz NOT NULL DEFAULT now()
);

-- Opening ranges per ISO weekday (1 Monday .. 7 Sunday), in minutes after local midnight. A
-- range whose close is not after its open runs past midnight into the next day (22:00-02:00);
-- closes_minute 0 with opens_minute 0 is open all day. Several ranges a day are allowed.
CREATE TABLE store_opening_hours (
    store_id       uuid NOT NULL REFERENCES store_calendars (store_id),
    weekday        integer NOT NULL CHECK (weekday BETWEEN 1 AND 7),
    opens_minute   integer NOT NULL CHECK (opens_minute BETWEEN 0 AND 1439),
    closes_minute  integer NOT NULL CHECK (closes_minute BETWEEN 0 AND 1439),
    PRIMARY KEY (store_id, weekday, opens_minute)
);

-- Local dates the store is closed: that date's opening ranges (with any part after midnight) do not open.
CREATE TABLE store_closures (
    store_id  uuid NOT NULL REFERENCES store_calendars (store_id),
    date      date NOT NULL,
    reason    text NOT NULL DEFAULT '' CHECK (length(reason) <= 200),
    PRIMARY KEY (store_id, date)
);

-- Places taken per slot. Taking one is a conditional update of this row
-- (`booked = booked + 1 WHERE booked < capacity`), so concurrent checkouts on many instances can
-- never overbook; freeing one is `booked - 1`. A row exists once a slot was first booked.
CREATE TABLE pickup_slot_bookings (
    store_id    uuid NOT NULL REFERENCES stores (id),
    slot_start  timestamptz NOT NULL,
    booked      integer NOT NULL CHECK (booked >= 0),
    PRIMARY KEY (store_id, slot_start)
);

-- The slot an order is collected in (both set or neither: orders of stores without a calendar).
ALTER TABLE orders ADD COLUMN pickup_slot_start timestamptz;
ALTER TABLE orders ADD COLUMN pickup_slot_end timestamptz;
ALTER TABLE orders ADD CONSTRAINT orders_pickup_slot_whole
    CHECK ((pickup_slot_start IS NULL) = (pickup_slot_end IS NULL) AND (pickup_slot_end IS NULL OR pickup_slot_end > pickup_slot_start));

-- The board and pick lists work the open orders of a store by slot.
CREATE INDEX orders_store_slot ON orders (store_id, pickup_slot_start) WHERE status IN ('pending', 'packaged', 'delivering');
