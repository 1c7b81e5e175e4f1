-- The scan at the desk under an Idempotency-Key (issue 29): the same scan sent again, by the same
-- staff member with the same key, is answered as the first was (collected, the order as it
-- stands) and changes nothing; a first scan is collect_order's, the key kept on the order it
-- handed over. A scan without a key is collect_order_viewed.
CREATE OR REPLACE FUNCTION collect_order_keyed(
    p_order uuid, p_store uuid, p_staff uuid, p_text text, p_id_method text, p_key text)
RETURNS TABLE (collected boolean, o order_view) LANGUAGE plpgsql AS $$
DECLARE
    v_collected boolean;
BEGIN
    IF EXISTS (SELECT 1 FROM orders WHERE id = p_order AND store_id = p_store AND status = 'completed'
                 AND collection_key = p_key AND collected_by = p_staff) THEN
        RETURN QUERY SELECT true, v FROM order_view(p_order) v;
        RETURN;
    END IF;
    v_collected := collect_order(p_order, p_store, p_staff, p_text, p_id_method);
    IF v_collected THEN
        UPDATE orders SET collection_key = p_key WHERE id = p_order;
    END IF;
    RETURN QUERY SELECT v_collected, v FROM order_view(p_order) v;
END
$$;
