-- 005_pick_lists: pick batches (the walk one picker makes for several orders), the orders on
-- each batch with their tote, and every pick recorded.

CREATE TABLE pick_batches (
    id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    store_id      uuid NOT NULL REFERENCES stores (id),
    status        text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'completed')),
    created_by    uuid NOT NULL REFERENCES users (id),
    created_at    timestamptz NOT NULL DEFAULT now(),
    completed_at  timestamptz,
    UNIQUE (store_id, id),
    CHECK ((status = 'completed') = (completed_at IS NOT NULL))
);

CREATE INDEX pick_batches_open ON pick_batches (store_id, created_at) WHERE status = 'open';

CREATE TABLE pick_batch_orders (
    store_id   uuid NOT NULL,
    batch_id   uuid NOT NULL,
    order_id   uuid NOT NULL,
    tote       text NOT NULL CHECK (tote ~ '^[A-Z]{1,3}$'),
    -- True while the batch is open: an order is on at most one open batch.
    open       boolean NOT NULL DEFAULT true,
    PRIMARY KEY (batch_id, order_id),
    UNIQUE (batch_id, tote),
    FOREIGN KEY (store_id, batch_id) REFERENCES pick_batches (store_id, id),
    FOREIGN KEY (store_id, order_id) REFERENCES orders (store_id, id)
);

CREATE UNIQUE INDEX pick_batch_orders_one_open_batch ON pick_batch_orders (order_id) WHERE open;

-- A line the picker could not fill completely is closed short; what was picked stands.
ALTER TABLE order_lines ADD COLUMN picked_short boolean NOT NULL DEFAULT false;

-- Every scan at the shelf, for the record.
CREATE TABLE picks (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    store_id    uuid NOT NULL,
    batch_id    uuid NOT NULL,
    order_id    uuid NOT NULL,
    product_id  uuid NOT NULL,
    quantity    integer NOT NULL CHECK (quantity >= 0),
    short       boolean NOT NULL DEFAULT false,
    picked_by   uuid NOT NULL REFERENCES users (id),
    picked_at   timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (store_id, batch_id) REFERENCES pick_batches (store_id, id),
    FOREIGN KEY (batch_id, order_id) REFERENCES pick_batch_orders (batch_id, order_id)
);

-- What an order line holds of its store's stock. Until the order is packaged a line holds all
-- it ordered; packaging releases what a line closed short did not get, so from then on it
-- holds what was picked. Cancellation and collection release or sell exactly this.
CREATE FUNCTION held_quantity(line order_lines, packaged boolean) RETURNS integer
LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN packaged AND line.picked_short THEN coalesce(line.picked_quantity, 0) ELSE line.quantity END
$$;
