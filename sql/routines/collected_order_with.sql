-- The customer's most recently collected order that held `p_product` (a line with units left
-- after substitutions that was not a rejected substitute), with its store; no row when none.
-- A review may be written only from one (ReviewQueries: every review is a verified purchase).
CREATE OR REPLACE FUNCTION collected_order_with(p_customer uuid, p_product uuid)
RETURNS TABLE (id uuid, store_id uuid) LANGUAGE sql STABLE AS $$
    SELECT o.id, o.store_id FROM orders o JOIN order_lines l ON l.order_id = o.id
     WHERE o.customer_id = p_customer AND o.status = 'completed' AND l.product_id = p_product
       AND l.quantity > 0 AND coalesce(l.substitution_status, 'accepted') <> 'rejected'
     ORDER BY o.collected_at DESC LIMIT 1
$$;
