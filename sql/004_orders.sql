-- 004_orders: carts, orders with their lines and history, pickup tokens, payments and the
-- payment provider's webhook events. Every store-scoped row carries store_id.

-- A customer's cart: one per customer, for one store. Lines survive a change of store
-- (they are re-priced and re-checked against the new store's stock when read).
CREATE TABLE carts (
    customer_id  uuid PRIMARY KEY REFERENCES users (id),
    store_id     uuid NOT NULL REFERENCES stores (id),
    updated_at   timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE cart_items (
    customer_id  uuid NOT NULL REFERENCES carts (customer_id),
    product_id   uuid NOT NULL REFERENCES products (id),
    quantity     integer NOT NULL CHECK (quantity BETWEEN 1 AND 99),
    added_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (customer_id, product_id)
);

-- The short number people read out at the desk ("order 1042"). A sequence, not a per-store
-- counter row, so concurrent checkouts never queue on one hot row.
CREATE SEQUENCE order_number_seq START 1001;

CREATE TABLE orders (
    id               uuid PRIMARY KEY,
    store_id         uuid NOT NULL REFERENCES stores (id),
    customer_id      uuid NOT NULL REFERENCES users (id),
    number           bigint NOT NULL UNIQUE DEFAULT nextval('order_number_seq'),
    status           text NOT NULL DEFAULT 'pending'
                     CHECK (status IN ('pending', 'packaged', 'delivering', 'completed', 'cancelled')),
    payment_method   text NOT NULL CHECK (payment_method IN ('pay_at_collection', 'prepaid')),
    payment_status   text NOT NULL DEFAULT 'unpaid' CHECK (payment_status IN ('unpaid', 'paid')),
    total_amount     bigint NOT NULL CHECK (total_amount >= 0),
    currency         char(3) NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    -- Checkout retries: the same key with the same request (its SHA-256) gives the same order.
    idempotency_key  text NOT NULL CHECK (length(idempotency_key) BETWEEN 1 AND 255),
    request_hash     bytea NOT NULL CHECK (length(request_hash) = 32),
    -- When each state was reached (created_at is when it became pending).
    created_at       timestamptz NOT NULL DEFAULT now(),
    packaged_at      timestamptz,
    delivering_at    timestamptz,
    completed_at     timestamptz,
    cancelled_at     timestamptz,
    paid_at          timestamptz,
    collected_by     uuid REFERENCES users (id),
    collected_at     timestamptz,
    UNIQUE (customer_id, idempotency_key),
    UNIQUE (store_id, id),
    -- Completed means collected, by someone, and paid; nothing else is collected.
    CONSTRAINT orders_completed_is_collected CHECK (
        (status = 'completed') = (collected_at IS NOT NULL)
        AND (collected_at IS NULL) = (collected_by IS NULL)
        AND (status <> 'completed' OR (completed_at IS NOT NULL AND payment_status = 'paid'))),
    CONSTRAINT orders_cancelled_has_time CHECK (status <> 'cancelled' OR cancelled_at IS NOT NULL),
    CONSTRAINT orders_paid_has_time CHECK ((payment_status = 'paid') = (paid_at IS NOT NULL))
);

CREATE INDEX orders_customer_newest ON orders (customer_id, created_at DESC, id DESC);
CREATE INDEX orders_store_board ON orders (store_id, status, created_at, id);

-- Prices and names are captured at checkout; later catalogue edits do not change an order.
CREATE TABLE order_lines (
    store_id          uuid NOT NULL,
    order_id          uuid NOT NULL,
    product_id        uuid NOT NULL REFERENCES products (id),
    name              text NOT NULL,
    unit_price        bigint NOT NULL CHECK (unit_price >= 0),
    quantity          integer NOT NULL CHECK (quantity BETWEEN 1 AND 99),
    -- Filled in by picking (pick lists); null until the line is picked.
    picked_quantity   integer CHECK (picked_quantity BETWEEN 0 AND quantity),
    PRIMARY KEY (order_id, product_id),
    FOREIGN KEY (store_id, order_id) REFERENCES orders (store_id, id)
);

-- The history of an order: every state it entered, who moved it, when and why.
CREATE TABLE order_events (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    store_id     uuid NOT NULL,
    order_id     uuid NOT NULL,
    from_status  text CHECK (from_status IN ('pending', 'packaged', 'delivering', 'completed', 'cancelled')),
    to_status    text NOT NULL CHECK (to_status IN ('pending', 'packaged', 'delivering', 'completed', 'cancelled')),
    actor_id     uuid REFERENCES users (id),
    reason       text CHECK (length(reason) <= 500),
    at           timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (store_id, order_id) REFERENCES orders (store_id, id)
);

CREATE INDEX order_events_order ON order_events (order_id, id);

-- The signed token behind an order's QR receipt: one per order, kept so the receipt can be
-- shown again later, and marked used by the collection scan.
CREATE TABLE pickup_tokens (
    id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    store_id    uuid NOT NULL,
    order_id    uuid NOT NULL UNIQUE,
    key_id      integer NOT NULL CHECK (key_id BETWEEN 1 AND 65535),
    text        text NOT NULL CHECK (text LIKE 'FC1:%'),
    issued_at   timestamptz NOT NULL DEFAULT now(),
    expires_at  timestamptz NOT NULL,
    used_at     timestamptz,
    used_by     uuid REFERENCES users (id),
    FOREIGN KEY (store_id, order_id) REFERENCES orders (store_id, id),
    CHECK (expires_at > issued_at),
    CHECK ((used_at IS NULL) = (used_by IS NULL))
);

-- Money received for an order: at the desk (card, cash) or from the payment provider.
-- One payment settles an order in full, so an order has at most one.
CREATE TABLE payments (
    id                 uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    store_id           uuid NOT NULL,
    order_id           uuid NOT NULL UNIQUE,
    method             text NOT NULL CHECK (method IN ('card', 'cash', 'provider')),
    amount             bigint NOT NULL CHECK (amount >= 0),
    currency           char(3) NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    recorded_by        uuid REFERENCES users (id),
    provider_event_id  text,
    created_at         timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (store_id, order_id) REFERENCES orders (store_id, id),
    CHECK ((method = 'provider') = (provider_event_id IS NOT NULL))
);

-- Every provider event accepted (signature checked), once: a replay finds its id here.
CREATE TABLE payment_webhook_events (
    event_id     text PRIMARY KEY CHECK (length(event_id) BETWEEN 1 AND 255),
    type         text NOT NULL,
    order_id     uuid,
    outcome      text NOT NULL,
    received_at  timestamptz NOT NULL DEFAULT now()
);
