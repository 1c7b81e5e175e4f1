-- What an order line holds of its store's stock. Until the order is packaged a line holds all
-- it ordered; packaging releases what a line closed short did not get, so from then on it
-- holds what was picked. A line removed at the desk holds nothing, nor a substitute the customer
-- rejected (issue 27). Cancellation, packaging and
-- collection release or sell exactly this.
CREATE OR REPLACE FUNCTION held_quantity(line order_lines, packaged boolean) RETURNS integer
LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN line.removed_at IS NOT NULL OR line.substitution_status = 'rejected' THEN 0
                WHEN packaged AND line.picked_short THEN coalesce(line.picked_quantity, 0)
                ELSE line.quantity END
$$;
