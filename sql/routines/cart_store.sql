-- The store a customer's cart is at: the cart's own, or else the store they chose for browsing
-- (NULL: neither). One rule for reading the cart and for adding to it.
CREATE OR REPLACE FUNCTION cart_store(p_customer uuid) RETURNS uuid LANGUAGE sql STABLE AS $$
    SELECT coalesce(
        (SELECT c.store_id FROM carts c WHERE c.customer_id = p_customer),
        (SELECT cs.store_id FROM customer_stores cs WHERE cs.user_id = p_customer))
$$;
