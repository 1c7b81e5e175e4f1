-- POST /v1/recipes/{id}/add-to-cart in one statement (RecipeQueries.addToCart): every linked
-- ingredient of the recipe, not skipped, goes into `p_customer`'s cart through add_to_cart (at
-- the cart's store, added to what the cart holds, all or nothing), scaled from the recipe's
-- servings to `p_servings` and rounded up to whole units.
--
-- Answers add_to_cart's JSON with "servings": {"storeId", "servings", "added": [...],
-- "notAdded": [...]}, each entry {"index", "text", "productId", "name", "quantity"} (the units it
-- asked for), added ones with "cartQuantity" (the line now), the others with "reason":
--   no_product     the ingredient names no product
--   discontinued   the product is discontinued
--   not_carried    the store has no stock of it (not in its range)
--   out_of_stock   fewer on hand (less reserved) than the line would then hold: "available"
--   quantity_limit the line would pass 99 units
-- or a refusal: {"code": "recipe_not_found"} (none, or hidden from this customer),
-- {"code": "no_store_chosen"}, {"code": "unknown_ingredient", "index": n} (skip names none).
CREATE OR REPLACE FUNCTION add_recipe_to_cart(p_customer uuid, p_recipe uuid, p_servings integer, p_skip integer[])
RETURNS json LANGUAGE plpgsql AS $$
DECLARE
    v_recipe recipes;
    v_servings integer;
    v_missing integer;
    v_result jsonb;
BEGIN
    SELECT r.* INTO v_recipe FROM recipes r
     WHERE r.id = p_recipe AND (r.hidden_at IS NULL OR r.author_id = p_customer);
    IF v_recipe.id IS NULL THEN
        RETURN json_build_object('code', 'recipe_not_found');
    END IF;
    SELECT s.n INTO v_missing FROM unnest(coalesce(p_skip, '{}')) AS s(n)
     WHERE NOT EXISTS (SELECT 1 FROM recipe_ingredients g WHERE g.recipe_id = p_recipe AND g.position = s.n)
     LIMIT 1;
    IF v_missing IS NOT NULL THEN
        RETURN json_build_object('code', 'unknown_ingredient', 'index', v_missing);
    END IF;
    v_servings := coalesce(p_servings, v_recipe.servings);
    -- Whole units for the servings asked, never fewer than the recipe's share of them.
    v_result := add_to_cart(p_customer, (
        SELECT coalesce(json_agg(json_build_object(
                   'index', g.position, 'text', g.text, 'productId', g.product_id,
                   'quantity', ceil(coalesce(g.quantity, 1)::numeric * v_servings / v_recipe.servings)::integer)
                   ORDER BY g.position), '[]')
          FROM recipe_ingredients g
         WHERE g.recipe_id = p_recipe AND NOT (g.position = ANY (coalesce(p_skip, '{}')))))::jsonb;
    IF v_result ? 'code' THEN
        RETURN v_result::json;
    END IF;
    RETURN (v_result || jsonb_build_object('servings', v_servings))::json;
END
$$;
