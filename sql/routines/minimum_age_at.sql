-- The age a customer of `p_store` must be to buy `p_product`: the chain's or the store's,
-- whichever is greater (GREATEST skips a NULL); NULL when neither asks any.
CREATE OR REPLACE FUNCTION minimum_age_at(p_store uuid, p_product uuid) RETURNS integer LANGUAGE sql STABLE AS $$
    SELECT GREATEST(p.minimum_age,
                    (SELECT s.minimum_age FROM store_minimum_ages s WHERE s.store_id = p_store AND s.product_id = p.id))
      FROM products p WHERE p.id = p_product
$$;
