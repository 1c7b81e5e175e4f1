-- The late-risk sweep (issue 47), run by every instance (OrderTimelinessService): each pending
-- order with a slot that starts within a day either side of `p_now` that order_timeliness finds
-- at risk or late is announced once: `order.at_risk` or `order.late` (emit_event: webhooks, the
-- live streams, and for `order.late` the customer's message), with its ready-by time and the new
-- estimate. The row in order_timeliness_events (unique per order, kind and ready-by time) is
-- written first, ON CONFLICT DO NOTHING, so two instances sweeping at once announce each order
-- once: the second waits on the first's row and then finds it there. An order first seen late
-- is announced late only (its at-risk moment was missed, not worth a second message).
-- Answers how many events it emitted.
CREATE OR REPLACE FUNCTION sweep_order_timeliness(p_now timestamptz) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
    r record;
    v_count integer := 0;
BEGIN
    FOR r IN
        SELECT o.id, o.store_id, t.ready_by, t.timeliness, t.ready_estimate
          FROM orders o CROSS JOIN LATERAL order_timeliness(o.id, p_now) t
         WHERE o.status = 'pending' AND o.pickup_slot_start IS NOT NULL
           AND o.pickup_slot_start BETWEEN p_now - interval '1 day' AND p_now + interval '1 day'
           AND t.timeliness IN ('at_risk', 'late')
           AND NOT EXISTS (SELECT 1 FROM order_timeliness_events e
                            WHERE e.order_id = o.id AND e.ready_by = t.ready_by
                              AND (e.kind = t.timeliness OR e.kind = 'late'))
         ORDER BY o.pickup_slot_start, o.id
    LOOP
        INSERT INTO order_timeliness_events (order_id, kind, ready_by)
        VALUES (r.id, r.timeliness, r.ready_by)
        ON CONFLICT DO NOTHING;
        IF FOUND THEN
            PERFORM emit_event(r.store_id, 'order.' || r.timeliness, r.id, jsonb_build_object(
                'order', order_summary_json(r.id), 'readyBy', api_time(r.ready_by),
                'expectedReadyAt', api_time(r.ready_estimate)));
            v_count := v_count + 1;
        END IF;
    END LOOP;
    RETURN v_count;
END
$$;
