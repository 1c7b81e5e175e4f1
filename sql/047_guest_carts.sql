-- Guest carts (issue 45): a visitor fills a cart before signing in. It lives here, not in the
-- browser, under an unguessable token the browser keeps in an HttpOnly cookie; only the token's
-- SHA-256 is stored. It is bounded so it cannot be used to fill the database: at most 50 lines
-- (guest_cart_items), at most 20 carts made per client address a day (client_address), and a
-- cart unused for 3 days is gone (set_guest_cart_line deletes expired carts as it makes a new
-- one; every read ignores them). Signing in or signing up merges it into the account's cart
-- (merge_guest_cart) and deletes it.
CREATE TABLE guest_carts (
    id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    token_hash     bytea NOT NULL UNIQUE CHECK (octet_length(token_hash) = 32),
    store_id       uuid NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
    client_address text NOT NULL CHECK (length(client_address) <= 100),
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX guest_carts_by_address ON guest_carts (client_address, created_at);
CREATE INDEX guest_carts_by_use ON guest_carts (updated_at);

CREATE TABLE guest_cart_items (
    cart_id    uuid NOT NULL REFERENCES guest_carts (id) ON DELETE CASCADE,
    product_id uuid NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    quantity   integer NOT NULL CHECK (quantity BETWEEN 1 AND 99),
    added_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (cart_id, product_id)
);
