-- Issue 33: signing in with an OpenID Connect provider (Sign in with Apple, Google, the chain's
-- workforce provider). The provider's keys and endpoints come from its discovery document at
-- run time; only what an admin configures is stored. The client secret is not: the row names
-- the file every instance reads it from (a container's mounted secret), so it is in neither the
-- database nor a backup.
CREATE TABLE identity_providers (
    id                 uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    issuer             text NOT NULL UNIQUE CHECK (issuer ~ '^https?://[^\s]+$' AND length(issuer) <= 500),
    name               text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
    client_id          text NOT NULL CHECK (length(client_id) BETWEEN 1 AND 500),
    client_secret_file text CHECK (length(client_secret_file) BETWEEN 1 AND 1000),
    -- Further audiences an ID token given to the token exchange may name: the apps' own client
    -- ids (an iOS app's bundle id for Apple, an Android client id for Google).
    audiences          text[] NOT NULL DEFAULT '{}',
    created_at         timestamptz NOT NULL DEFAULT now()
);

-- Which account a provider's subject signs in to. One account per subject, and at most one
-- subject per provider per account.
CREATE TABLE identity_links (
    provider_id        uuid NOT NULL REFERENCES identity_providers (id) ON DELETE CASCADE,
    subject            text NOT NULL CHECK (length(subject) BETWEEN 1 AND 255),
    user_id            uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    email              text,
    linked_at          timestamptz NOT NULL DEFAULT now(),
    last_signed_in_at  timestamptz,
    PRIMARY KEY (provider_id, subject),
    UNIQUE (user_id, provider_id)
);
CREATE INDEX identity_links_user ON identity_links (user_id);

-- A browser's sign-in under way (the authorization code flow): written when the browser is sent
-- to the provider, used once when it comes back. Any instance may answer the callback. When the
-- provider's verified email belongs to an account with a password, the row waits (with what the
-- provider proved) for that password, which links the two.
CREATE TABLE provider_sign_ins (
    state              text PRIMARY KEY CHECK (length(state) BETWEEN 32 AND 100),
    provider_id        uuid NOT NULL REFERENCES identity_providers (id) ON DELETE CASCADE,
    nonce              text NOT NULL,
    code_verifier      text NOT NULL,
    redirect_uri       text NOT NULL,
    return_to          text NOT NULL,
    subject            text,
    email              text,
    user_id            uuid REFERENCES users (id) ON DELETE CASCADE,
    created_at         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX provider_sign_ins_created ON provider_sign_ins (created_at);
