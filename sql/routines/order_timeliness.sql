-- Whether an open order will be ready on time (issue 47, "ready on time"), at `p_now` (a
-- parameter, so the service passes its clock and a test any time it likes).
--
-- ready_by: its slot's start less the store's ready_lead_minutes (063): when it must be packed.
-- timeliness:
--   late      it is not packed (still `pending`) and `p_now` is past ready_by;
--   at_risk   it is not packed, not late, and `p_now` plus the work still before it is past
--             ready_by (ready_estimate > ready_by);
--   on_track  otherwise (packed orders are always on track: the work is done).
-- The work still before it, in seconds of picking: an order on an open pick list is being
-- picked, so only its own work; an order on no list waits behind the store's other pending orders
-- on no list whose slot starts earlier (or the same slot, placed earlier), so theirs and its own
-- (each order's pick_work_seconds, booked at checkout; 0 for orders from before 058). Orders whose
-- slot started more than a day ago are left out of the queue: they are abandoned, the expiry
-- sweep's to close, not work anyone will do first. The work is done at the rate of the pickers
-- the rota plans for `p_now`'s hour (store_pickers_at; at least one; one without a rota) at
-- rota_utilisation_percent (the rate slots are booked at), so ready_estimate is `p_now` plus the
-- work over that rate. It is an estimate: the rota's later hours, the lists already being walked
-- and picks already made on a list are not counted (an order on a list counts its whole work).
-- No row: the order is closed (collected, cancelled), has no slot, or its store has no calendar.
CREATE OR REPLACE FUNCTION order_timeliness(p_order uuid, p_now timestamptz)
RETURNS TABLE (ready_by timestamptz, timeliness text, ready_estimate timestamptz)
LANGUAGE plpgsql STABLE ROWS 1 AS $$
DECLARE
    o record;
    v_ready timestamptz;
    v_work bigint;
    v_rate numeric;
    v_estimate timestamptz;
BEGIN
    SELECT x.id, x.store_id, x.status, x.pickup_slot_start, x.created_at, coalesce(x.pick_work_seconds, 0) AS work,
           c.ready_lead_minutes
      INTO o
      FROM orders x JOIN store_calendars c ON c.store_id = x.store_id
     WHERE x.id = p_order AND x.status IN ('pending', 'packaged', 'delivering') AND x.pickup_slot_start IS NOT NULL;
    IF NOT FOUND THEN
        RETURN;
    END IF;
    v_ready := o.pickup_slot_start - make_interval(mins => o.ready_lead_minutes);
    IF o.status <> 'pending' THEN
        RETURN QUERY SELECT v_ready, 'on_track'::text, NULL::timestamptz;
        RETURN;
    END IF;
    IF EXISTS (SELECT 1 FROM pick_list_orders l WHERE l.order_id = p_order AND l.open) THEN
        v_work := o.work;
    ELSE
        SELECT o.work + coalesce(sum(coalesce(q.pick_work_seconds, 0)), 0) INTO v_work
          FROM orders q
         WHERE q.store_id = o.store_id AND q.status = 'pending'
           AND q.pickup_slot_start >= p_now - interval '1 day'
           AND (q.pickup_slot_start, q.created_at, q.id) < (o.pickup_slot_start, o.created_at, o.id)
           AND NOT EXISTS (SELECT 1 FROM pick_list_orders l WHERE l.order_id = q.id AND l.open);
    END IF;
    v_rate := greatest(coalesce(store_pickers_at(o.store_id, p_now), 1), 1) * rota_utilisation_percent() / 100.0;
    v_estimate := p_now + make_interval(secs => ceil(v_work / v_rate));
    RETURN QUERY SELECT v_ready,
                        CASE WHEN p_now > v_ready THEN 'late' WHEN v_estimate > v_ready THEN 'at_risk' ELSE 'on_track' END,
                        v_estimate;
END
$$;
