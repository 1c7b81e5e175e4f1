-- 010_age_restricted_goods: products a customer must be old enough to buy (alcohol: 18), the
-- ID check at hand-over, and the lines staff remove at the desk when no ID is shown.

-- A product's minimum age; null when anyone may buy it.
ALTER TABLE products ADD COLUMN minimum_age integer CHECK (minimum_age BETWEEN 1 AND 120);

-- The minimum age as it was at checkout (like name and price), and a line taken off the order
-- at the desk: it then holds no stock and costs nothing.
ALTER TABLE order_lines ADD COLUMN minimum_age integer CHECK (minimum_age BETWEEN 1 AND 120);
ALTER TABLE order_lines ADD COLUMN removed_at timestamptz;
ALTER TABLE order_lines ADD COLUMN removed_by uuid REFERENCES users (id);
ALTER TABLE order_lines ADD CONSTRAINT order_lines_removed_by_someone CHECK ((removed_at IS NULL) = (removed_by IS NULL));

-- Every way a line is written at checkout captures the product's minimum age at that moment.
CREATE FUNCTION order_line_minimum_age() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    SELECT p.minimum_age INTO NEW.minimum_age FROM products p WHERE p.id = NEW.product_id;
    RETURN NEW;
END
$$;

CREATE TRIGGER order_lines_minimum_age BEFORE INSERT ON order_lines
FOR EACH ROW EXECUTE FUNCTION order_line_minimum_age();

-- Who confirmed the customer's age at hand-over, how and when. Never a date of birth.
CREATE TABLE id_checks (
    order_id      uuid PRIMARY KEY,
    store_id      uuid NOT NULL,
    minimum_age   integer NOT NULL CHECK (minimum_age BETWEEN 1 AND 120),
    method        text NOT NULL CHECK (method IN ('seen', 'scanned')),
    confirmed_by  uuid NOT NULL REFERENCES users (id),
    confirmed_at  timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (store_id, order_id) REFERENCES orders (store_id, id)
);

-- A removed line holds nothing: cancellation, packaging and collection release or sell exactly
-- `held_quantity`, so they all skip it.
CREATE OR REPLACE FUNCTION held_quantity(line order_lines, packaged boolean) RETURNS integer
LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN line.removed_at IS NOT NULL THEN 0
                WHEN packaged AND line.picked_short THEN coalesce(line.picked_quantity, 0)
                ELSE line.quantity END
$$;
