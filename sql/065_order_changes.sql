-- 065_order_changes: the customer changes their order until the cut-off (issue 48). A change of
-- lines is an entry in the order's history of its own kind, `changed` (its `reason` says what in
-- words, its `detail` per product before and after), and the outbox names its event after the
-- kind: `order.changed` (order_events_outbox).
ALTER TABLE order_events DROP CONSTRAINT order_events_kind_check;
ALTER TABLE order_events ADD CONSTRAINT order_events_kind_check
    CHECK (kind IN ('status', 'substitution_proposed', 'substitution_decided', 'customer_arrived', 'changed'));

-- order_view (migration 017) gains at its end whether the customer may still change the order:
-- pending and on no open pick list (the cut-off; change_order_lines asks the same under its lock).
ALTER TYPE order_view ADD ATTRIBUTE changeable boolean;
