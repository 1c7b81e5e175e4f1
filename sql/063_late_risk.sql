-- 063_late_risk: ready on time (issue 47). Each open order with a slot must be packed a little
-- before its slot starts (its ready-by time); order_timeliness says whether it is on track, at
-- risk or late, and the late-risk sweep (sweep_order_timeliness) tells webhooks, the live streams
-- and the customer once per order, kind and ready-by time.

-- Minutes before its slot's start an order must be packed (0..240; 15 unless the manager says).
ALTER TABLE store_calendars
    ADD COLUMN ready_lead_minutes integer NOT NULL DEFAULT 15 CHECK (ready_lead_minutes BETWEEN 0 AND 240);

-- One row per order, kind and ready-by time the sweep has announced: its unique key is what makes
-- the sweep safe on any number of instances (the second insert finds the row and emits nothing).
-- A slot moved is a new ready-by time, so an order moved and at risk again is announced again.
CREATE TABLE order_timeliness_events (
    order_id  uuid NOT NULL REFERENCES orders (id),
    kind      text NOT NULL CHECK (kind IN ('at_risk', 'late')),
    ready_by  timestamptz NOT NULL,
    at        timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (order_id, kind, ready_by)
);

-- The sweep reads the pending orders with a slot, soonest first.
CREATE INDEX orders_pending_slot ON orders (pickup_slot_start, store_id) WHERE status = 'pending' AND pickup_slot_start IS NOT NULL;

-- The customer's message when their order is late (queue_event_messages, on `order.late`).
ALTER TABLE messages DROP CONSTRAINT messages_kind_check;
ALTER TABLE messages ADD CONSTRAINT messages_kind_check CHECK (kind IN (
    'order_placed', 'ready_for_pickup', 'substitution_proposed', 'collection_reminder',
    'order_cancelled', 'refund_made', 'back_in_stock', 'password_reset',
    'email_change_confirmation', 'email_changed_notice', 'staff_invite', 'order_late'));
