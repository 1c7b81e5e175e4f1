-- The scan (collect_order) and the order as it then stands (order_view), in one statement:
-- the answer when it was handed over, the explanation (Collections.check) when it was not.
-- PL/pgSQL, so the read is a new query that sees the scan's own writes.
CREATE OR REPLACE FUNCTION collect_order_viewed(p_order uuid, p_store uuid, p_staff uuid, p_text text, p_id_method text)
RETURNS TABLE (collected boolean, o order_view) LANGUAGE plpgsql AS $$
DECLARE
    v_collected boolean := collect_order(p_order, p_store, p_staff, p_text, p_id_method);
BEGIN
    RETURN QUERY SELECT v_collected, v FROM order_view(p_order) v;
END
$$;
