-- 036_substitutions_and_arrival (issue 27): what a customer agrees to be given instead of a line
-- the shelf cannot fill, what the picker gave, what the customer decided, and "I'm here" at
-- the kerb.
--
-- A store says what a line that says nothing accepts, and how a substitute is priced: `cap`
-- (the lower of the substitute's price and the original line's) or `substitute_price`.
ALTER TABLE stores
    ADD COLUMN substitution_default text NOT NULL DEFAULT 'best_match'
        CHECK (substitution_default IN ('none', 'best_match')),
    ADD COLUMN substitution_price_rule text NOT NULL DEFAULT 'cap'
        CHECK (substitution_price_rule IN ('cap', 'substitute_price'));

-- A cart line's preference: NULL is the store's default; `specific` names 1 to 3 products, in
-- order, and only `specific` names any.
ALTER TABLE cart_items
    ADD COLUMN substitution text CHECK (substitution IN ('none', 'best_match', 'specific')),
    ADD COLUMN substitute_ids uuid[] NOT NULL DEFAULT '{}',
    ADD CONSTRAINT cart_items_substitute_ids CHECK (
        CASE WHEN substitution = 'specific' THEN cardinality(substitute_ids) BETWEEN 1 AND 3
             ELSE cardinality(substitute_ids) = 0 END);

-- An order line keeps the preference it was checked out with (the store's default filled in).
-- A substitution moves `substituted_quantity` units of a line onto a new line, the substitute:
-- the original's `quantity` is what is still to be picked of it, so it may reach 0 when the
-- whole line was substituted (it is then left off the pick route). The substitute line carries
-- the substitution's id, the product it stands in for and the customer's answer: `proposed`
-- until they (or the desk) decide, `rejected` holding no stock and costing nothing
-- (held_quantity, order_line_amount).
ALTER TABLE order_lines
    ADD COLUMN substitution text NOT NULL DEFAULT 'none' CHECK (substitution IN ('none', 'best_match', 'specific')),
    ADD COLUMN substitute_ids uuid[] NOT NULL DEFAULT '{}',
    ADD COLUMN substituted_quantity integer NOT NULL DEFAULT 0 CHECK (substituted_quantity BETWEEN 0 AND 99),
    ADD COLUMN substitution_id uuid UNIQUE,
    ADD COLUMN substitute_for uuid REFERENCES products (id),
    ADD COLUMN substitution_status text CHECK (substitution_status IN ('proposed', 'accepted', 'rejected')),
    ADD COLUMN substitution_decided_at timestamptz,
    ADD COLUMN substitution_decided_by uuid REFERENCES users (id),
    ADD CONSTRAINT order_lines_substitute_whole CHECK (
        (substitution_id IS NULL) = (substitute_for IS NULL) AND (substitute_for IS NULL) = (substitution_status IS NULL)
        AND coalesce(substitution_status IN ('accepted', 'rejected'), false) = (substitution_decided_at IS NOT NULL));
ALTER TABLE order_lines DROP CONSTRAINT order_lines_quantity_check;
ALTER TABLE order_lines ADD CONSTRAINT order_lines_quantity_check
    CHECK (quantity BETWEEN 0 AND 99 AND (quantity > 0 OR substituted_quantity > 0) AND quantity + substituted_quantity <= 99);

-- An order's history holds more than its status changes: a substitution proposed or decided,
-- the customer's arrival. `kind` says which (the outbox names the event after it) and
-- `detail` carries what the event adds to the order's summary.
ALTER TABLE order_events
    ADD COLUMN kind text NOT NULL DEFAULT 'status'
        CHECK (kind IN ('status', 'substitution_proposed', 'substitution_decided', 'customer_arrived')),
    ADD COLUMN detail jsonb;

-- The stock ledger also records a substitution's move of reservations (on hand unchanged): the
-- original's released, the substitute's taken, a rejected substitute's given back.
ALTER TABLE stock_movements ADD COLUMN reserved_delta integer NOT NULL DEFAULT 0;
ALTER TABLE stock_movements DROP CONSTRAINT stock_movements_reason_check;
ALTER TABLE stock_movements ADD CONSTRAINT stock_movements_reason_check
    CHECK (reason IN ('received', 'damaged', 'expired', 'returned', 'count', 'correction', 'import', 'substitution'));

-- "I'm here": when the customer first said so (the wait is measured from it), and where.
ALTER TABLE orders
    ADD COLUMN arrived_at timestamptz,
    ADD COLUMN arrival_bay text CHECK (length(arrival_bay) <= 20),
    ADD COLUMN arrival_vehicle text CHECK (length(arrival_vehicle) <= 100),
    ADD COLUMN arrival_note text CHECK (length(arrival_note) <= 500),
    ADD COLUMN arrival_updated_at timestamptz;
CREATE INDEX orders_store_arrived ON orders (store_id, arrived_at) WHERE arrived_at IS NOT NULL AND status IN ('packaged', 'delivering');

-- order_view (migration 017) gains the arrival at its end, as JSON text.
ALTER TYPE order_view ADD ATTRIBUTE arrival_json text;

-- set_cart_line and set_cart_line_viewed take the line's preference; cart_view answers it.
-- Their shapes change, so they are dropped here and made again by their routine files.
DROP FUNCTION IF EXISTS set_cart_line_viewed(uuid, uuid, integer);
DROP FUNCTION IF EXISTS set_cart_line(uuid, uuid, integer);
DROP FUNCTION IF EXISTS cart_view(uuid);
-- place_order answers each line's preference too (a new OUT column): dropped and made again.
DROP FUNCTION IF EXISTS place_order(uuid, uuid, uuid, text, text, bytea, timestamptz, timestamptz, integer, integer, text, timestamptz);
