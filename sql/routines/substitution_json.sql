-- A substitution as the API's `Substitution` (issue 27), for the events that carry it
-- (order.substitution_proposed, order.substitution_decided): the line it stands in for, what
-- was given instead, how many, at what unit price, and the customer's answer.
CREATE OR REPLACE FUNCTION substitution_json(p_substitution uuid) RETURNS jsonb LANGUAGE sql STABLE AS $$
    SELECT jsonb_strip_nulls(jsonb_build_object(
        'id', l.substitution_id,
        'orderId', l.order_id,
        'productId', l.substitute_for,
        'productName', o.name,
        'substituteProductId', l.product_id,
        'substituteName', l.name,
        'quantity', l.quantity,
        'unitPrice', jsonb_build_object('amount', l.unit_price, 'currency', r.currency),
        'status', l.substitution_status,
        'decidedAt', api_time(l.substitution_decided_at)))
    FROM order_lines l
    JOIN orders r ON r.id = l.order_id
    JOIN order_lines o ON o.order_id = l.order_id AND o.product_id = l.substitute_for
    WHERE l.substitution_id = p_substitution
$$;
