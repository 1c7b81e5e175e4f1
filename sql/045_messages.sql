-- Messages that reach people (issue 44): the mail outbox, what a customer chose to receive, the
-- addresses that bounced, password resets and changes of email address.

-- Optional messages are the customer's choice; transactional ones (receipt, ready, cancelled,
-- refund, password, email) always go. "Back in stock" needs consent, so it starts off.
ALTER TABLE users
    ADD COLUMN wants_back_in_stock boolean NOT NULL DEFAULT false,
    ADD COLUMN wants_reminders boolean NOT NULL DEFAULT true;

-- How long before an uncollected order expires its customer is reminded; 0: never. The logo
-- (an https address of an image) heads the store's messages when set.
ALTER TABLE stores
    ADD COLUMN reminder_before interval NOT NULL DEFAULT interval '24 hours'
        CHECK (reminder_before BETWEEN interval '0' AND interval '14 days'),
    ADD COLUMN logo_url text CHECK (logo_url ~ '^https://[^\s"<>]+$' AND length(logo_url) <= 2000);

-- An address a mail server refused for good (a 5xx naming the mailbox): not mailed again until
-- the account's address changes to another one.
CREATE TABLE bounced_addresses (
    address_key  text PRIMARY KEY CHECK (address_key = lower(address_key)),
    bounced_at   timestamptz NOT NULL DEFAULT now(),
    reply        text NOT NULL CHECK (length(reply) <= 1000)
);

-- The outbox of mail. A row is written in the transaction of the change it tells of (by the
-- event outbox's trigger, a refund's, the reminder sweep, a reset or email change), then claimed
-- by any instance's sender (FOR UPDATE SKIP LOCKED, a lease) and sent. `moment` names what it
-- tells of (an event's id, a refund's, a reset's, an order's for its one reminder): one message
-- per moment, kind and recipient, however many instances and restarts.
CREATE TABLE messages (
    id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    -- NULL for an account's own messages (password, email), which are the chain's.
    store_id         uuid REFERENCES stores (id),
    order_id         uuid,
    user_id          uuid REFERENCES users (id),
    kind             text NOT NULL CHECK (kind IN (
                         'order_placed', 'ready_for_pickup', 'substitution_proposed', 'collection_reminder',
                         'order_cancelled', 'refund_made', 'back_in_stock', 'password_reset',
                         'email_change_confirmation', 'email_changed_notice')),
    moment           text NOT NULL CHECK (length(moment) BETWEEN 1 AND 100),
    recipient        text NOT NULL CHECK (length(recipient) BETWEEN 3 AND 254),
    -- What the template needs beyond the rows it reads when it renders (a product, a reason).
    data             jsonb NOT NULL DEFAULT '{}',
    -- pending: to send (or kept, with no mail server); sent: the server accepted it; failed: a
    -- permanent refusal or retries exhausted; suppressed: never sent (a bounced address, erasure).
    status           text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed', 'suppressed')),
    attempts         integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    next_attempt_at  timestamptz NOT NULL DEFAULT now(),
    last_attempt_at  timestamptz,
    sent_at          timestamptz,
    -- The server's words for a failure (no secret is ever in them).
    last_error       text CHECK (length(last_error) <= 1000),
    created_at       timestamptz NOT NULL DEFAULT now(),
    UNIQUE (kind, moment, recipient),
    FOREIGN KEY (store_id, order_id) REFERENCES orders (store_id, id),
    CHECK ((status = 'sent') = (sent_at IS NOT NULL))
);
CREATE INDEX messages_due ON messages (next_attempt_at) WHERE status = 'pending';
CREATE INDEX messages_order ON messages (order_id, created_at) WHERE order_id IS NOT NULL;
-- The Mail page, newest first: the admin's every message, a manager's filtered to their store.
-- One index for both (each index is written by every checkout's receipt: issue 44 counts them).
CREATE INDEX messages_newest ON messages (created_at DESC, id DESC);
-- An account's messages that belong to no order (password, email, back in stock), for erasure;
-- its orders' messages are found through messages_order.
CREATE INDEX messages_unordered_user ON messages (user_id) WHERE order_id IS NULL;

-- A password reset asked for by email: only the SHA-256 of its link's token is kept. One use,
-- 30 minutes; a newer request ends the older ones (ended_at).
CREATE TABLE password_resets (
    id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id     uuid NOT NULL REFERENCES users (id),
    token_hash  bytea NOT NULL UNIQUE CHECK (length(token_hash) = 32),
    -- The data key whose HMAC makes the link's token (so the sender can write it again).
    key_id      integer NOT NULL CHECK (key_id BETWEEN 1 AND 65535),
    created_at  timestamptz NOT NULL DEFAULT now(),
    expires_at  timestamptz NOT NULL,
    used_at     timestamptz,
    ended_at    timestamptz
);
CREATE INDEX password_resets_user ON password_resets (user_id, created_at DESC);

-- Requests for resets, per address and per client, to throttle them (the rows of the last hour
-- are what count; older ones are forgotten as new ones arrive).
CREATE TABLE password_reset_requests (
    email_key   text NOT NULL CHECK (length(email_key) <= 254),
    client      text NOT NULL CHECK (length(client) <= 100),
    at          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX password_reset_requests_email ON password_reset_requests (email_key, at);
CREATE INDEX password_reset_requests_client ON password_reset_requests (client, at);

-- A change of email address waiting for its confirmation from the new address (the link's
-- token kept as its SHA-256, as resets are). It takes effect only when confirmed.
CREATE TABLE email_changes (
    id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id       uuid NOT NULL REFERENCES users (id),
    new_email     text NOT NULL CHECK (new_email = btrim(new_email) AND length(new_email) BETWEEN 3 AND 254),
    token_hash    bytea NOT NULL UNIQUE CHECK (length(token_hash) = 32),
    key_id        integer NOT NULL CHECK (key_id BETWEEN 1 AND 65535),
    created_at    timestamptz NOT NULL DEFAULT now(),
    expires_at    timestamptz NOT NULL,
    confirmed_at  timestamptz,
    ended_at      timestamptz
);
CREATE INDEX email_changes_user ON email_changes (user_id, created_at DESC);
