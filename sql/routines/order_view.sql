-- One order as the service shows it (its row type, the composite type order_view, is made by
-- migration 017): lines, history and age check as JSON text, so the whole order is one row.
-- Timestamps inside the JSON are PostgreSQL's microseconds since 2000 (see OrderParts).
-- The coupon's discount (migration 035) comes next, and each line's share in its JSON; then the
-- customer's arrival (migration 036) as JSON text. Each line says its substitution preference,
-- how much of it was substituted, and a substitute line its substitution (issue 27); each
-- history entry its kind and detail. Each line also says what it holds now (`held`,
-- held_quantity: short picks, a refused substitute, a line removed at the desk) and what it costs
-- now (`amount`, order_line_amount: what recompute_order_total adds up), so the lines a customer
-- reads add up to the order's total. Each line says the tax class and rate it kept (migration
-- 060) and what refunds have paid back for it (`refunded`, migration 062); the order ends with
-- its store's tax (name, registration number, the seller's name and address for a VAT receipt),
-- as JSON text, when the store is in a jurisdiction; then its bags (migration 064) as JSON text:
-- whether its store keeps staging places, and each bag with its zone, code, place and times; then
-- whether its customer may still change it (issue 48, migration 065: pending and on no open pick
-- list, the cut-off; change_order_lines.sql).
-- `OrderQueries.order` reads this; `collect_order_viewed` returns it after the scan.
CREATE OR REPLACE FUNCTION order_view(p_order uuid) RETURNS SETOF order_view LANGUAGE sql STABLE ROWS 1 AS $$
    SELECT o.id, o.number, o.store_id, o.customer_id, u.name, o.status, o.payment_method, o.payment_status,
           o.total_amount, o.currency::text, o.created_at, o.packaged_at, o.delivering_at, o.completed_at,
           o.cancelled_at, o.paid_at, o.collected_at, o.collected_by, t.text, t.expires_at, t.used_at,
           o.refund_due_amount, o.pickup_slot_start, o.pickup_slot_end, c.time_zone,
           (SELECT coalesce(json_agg(json_build_object(
                       'productId', l.product_id, 'name', l.name, 'unitPrice', l.unit_price, 'quantity', l.quantity,
                       'picked', l.picked_quantity, 'minimumAge', l.minimum_age, 'removed', l.removed_at IS NOT NULL,
                       'discount', l.discount_amount, 'substitution', l.substitution, 'substituteIds', l.substitute_ids,
                       'substitutedQuantity', l.substituted_quantity, 'substitutionId', l.substitution_id,
                       'substituteFor', l.substitute_for, 'substitutionStatus', l.substitution_status,
                       'decidedAt', ((extract(epoch FROM l.substitution_decided_at) - 946684800) * 1000000)::int8,
                       'pickedShort', l.picked_short, 'held', held_quantity(l, o.packaged_at IS NOT NULL),
                       'amount', order_line_amount(l, held_quantity(l, o.packaged_at IS NOT NULL)),
                       'taxClass', l.tax_class, 'taxRate', l.tax_rate_bp,
                       'refunded', (SELECT coalesce(sum(rl.amount), 0)::int8 FROM refund_lines rl
                                    WHERE rl.order_id = l.order_id AND rl.product_id = l.product_id))
                   ORDER BY l.name, l.product_id), '[]')
            FROM order_lines l WHERE l.order_id = o.id)::text,
           (SELECT coalesce(json_agg(json_build_object(
                       'from', e.from_status, 'to', e.to_status, 'actorId', e.actor_id, 'actorName', a.name,
                       'reason', e.reason, 'at', ((extract(epoch FROM e.at) - 946684800) * 1000000)::int8,
                       'kind', e.kind)
                   ORDER BY e.id), '[]')
            FROM order_events e LEFT JOIN users a ON a.id = e.actor_id WHERE e.order_id = o.id)::text,
           json_build_object(
               'required', (SELECT max(l.minimum_age) FROM order_lines l WHERE l.order_id = o.id AND l.removed_at IS NULL),
               'minimumAge', k.minimum_age, 'method', k.method, 'by', k.confirmed_by, 'byName', ku.name,
               'at', ((extract(epoch FROM k.confirmed_at) - 946684800) * 1000000)::int8)::text,
           o.discount_amount,
           CASE WHEN o.arrived_at IS NOT NULL THEN json_build_object(
               'at', ((extract(epoch FROM o.arrived_at) - 946684800) * 1000000)::int8, 'bay', o.arrival_bay,
               'vehicle', o.arrival_vehicle, 'note', o.arrival_note)::text END,
           (SELECT json_build_object('name', j.tax_name, 'number', s.tax_number, 'seller', s.name, 'address', s.address)::text
            FROM stores s JOIN tax_jurisdictions j ON j.code = s.tax_jurisdiction WHERE s.id = o.store_id),
           json_build_object(
               'placesKept', EXISTS (SELECT 1 FROM staging_places sp WHERE sp.store_id = o.store_id),
               'bags', (SELECT coalesce(json_agg(json_build_object(
                               'number', b.number, 'zone', b.zone, 'code', b.code, 'placeId', b.place_id, 'place', p.name,
                               'placeKind', p.kind,
                               'stagedAt', ((extract(epoch FROM b.staged_at) - 946684800) * 1000000)::int8,
                               'handedOverAt', ((extract(epoch FROM b.handed_over_at) - 946684800) * 1000000)::int8)
                           ORDER BY b.number), '[]')
                        FROM order_bags b LEFT JOIN staging_places p ON p.id = b.place_id WHERE b.order_id = o.id))::text,
           o.status = 'pending' AND NOT EXISTS (SELECT 1 FROM pick_list_orders plo WHERE plo.order_id = o.id AND plo.open)
    FROM orders o
    JOIN users u ON u.id = o.customer_id
    LEFT JOIN pickup_tokens t ON t.order_id = o.id
    LEFT JOIN store_calendars c ON c.store_id = o.store_id
    LEFT JOIN id_checks k ON k.order_id = o.id
    LEFT JOIN users ku ON ku.id = k.confirmed_by
    WHERE o.id = p_order
$$;
