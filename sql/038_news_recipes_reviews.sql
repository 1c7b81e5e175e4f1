-- 038_news_recipes_reviews (issue 31): a store's news, community recipes that fill the cart,
-- comments on both, product reviews with ratings, and the moderation of all of it.
--
-- Bodies are kept as the Markdown their authors wrote; the service renders and sanitises them
-- on the way out (Content/Markdown.swift, SafeHTML.swift), so a stricter sanitiser applies to
-- everything already written, and nothing stored is HTML that was trusted once.
-- Every row a store moderates carries that store (store_id): a store's news, a recipe posted at
-- a store, a comment on either, a review from an order collected there. A recipe posted with no
-- store has none, and the chain's admin moderates it.

CREATE TABLE news_items (
    id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    store_id      uuid NOT NULL REFERENCES stores (id),
    author_id     uuid REFERENCES users (id) ON DELETE SET NULL,
    title         text NOT NULL CHECK (length(btrim(title)) BETWEEN 1 AND 200),
    body_markdown text NOT NULL CHECK (length(body_markdown) <= 20000),
    published     boolean NOT NULL DEFAULT false,
    -- When it was first published: the order readers see (pinned first, then newest).
    published_at  timestamptz,
    pinned        boolean NOT NULL DEFAULT false,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT news_items_published_at CHECK (NOT published OR published_at IS NOT NULL)
);
CREATE INDEX news_items_store_feed ON news_items (store_id, pinned DESC, published_at DESC, id) WHERE published;

CREATE TABLE recipes (
    id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    -- The store it was posted at (the author's, or the one a customer chose), or none.
    store_id      uuid REFERENCES stores (id),
    author_id     uuid REFERENCES users (id) ON DELETE SET NULL,
    title         text NOT NULL CHECK (length(btrim(title)) BETWEEN 1 AND 200),
    body_markdown text NOT NULL CHECK (length(body_markdown) <= 20000),
    servings      integer NOT NULL CHECK (servings BETWEEN 1 AND 100),
    -- Full-text search over the title, the ingredients' text and the body (written with them).
    search        tsvector NOT NULL,
    hidden_at     timestamptz,
    hidden_by     uuid REFERENCES users (id) ON DELETE SET NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX recipes_search ON recipes USING gin (search);
CREATE INDEX recipes_newest ON recipes (created_at DESC, id);

-- A recipe's ingredients in its order (position from 0: the index add-to-cart's `skip` names).
-- `quantity` is the units of the product for the recipe's servings (1 when not said).
CREATE TABLE recipe_ingredients (
    recipe_id   uuid NOT NULL REFERENCES recipes (id) ON DELETE CASCADE,
    position    integer NOT NULL CHECK (position BETWEEN 0 AND 99),
    text        text NOT NULL CHECK (length(btrim(text)) BETWEEN 1 AND 200),
    product_id  uuid REFERENCES products (id),
    quantity    integer CHECK (quantity BETWEEN 1 AND 999),
    PRIMARY KEY (recipe_id, position)
);
CREATE INDEX recipe_ingredients_product ON recipe_ingredients (product_id) WHERE product_id IS NOT NULL;

CREATE TABLE comments (
    id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    store_id      uuid REFERENCES stores (id),
    recipe_id     uuid REFERENCES recipes (id) ON DELETE CASCADE,
    news_id       uuid REFERENCES news_items (id) ON DELETE CASCADE,
    author_id     uuid REFERENCES users (id) ON DELETE SET NULL,
    body_markdown text NOT NULL CHECK (length(btrim(body_markdown)) BETWEEN 1 AND 4000),
    hidden_at     timestamptz,
    hidden_by     uuid REFERENCES users (id) ON DELETE SET NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT comments_on_one CHECK (num_nonnulls(recipe_id, news_id) = 1)
);
CREATE INDEX comments_on_recipe ON comments (recipe_id, created_at, id) WHERE recipe_id IS NOT NULL;
CREATE INDEX comments_on_news ON comments (news_id, created_at, id) WHERE news_id IS NOT NULL;

-- One review per customer and product, from an order of theirs that was collected (so every
-- review is a verified purchase); the store is that order's.
CREATE TABLE product_reviews (
    id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    product_id    uuid NOT NULL REFERENCES products (id),
    store_id      uuid NOT NULL REFERENCES stores (id),
    order_id      uuid NOT NULL REFERENCES orders (id),
    author_id     uuid REFERENCES users (id) ON DELETE SET NULL,
    rating        smallint NOT NULL CHECK (rating BETWEEN 1 AND 5),
    body_markdown text NOT NULL DEFAULT '' CHECK (length(body_markdown) <= 4000),
    helpful_count integer NOT NULL DEFAULT 0 CHECK (helpful_count >= 0),
    hidden_at     timestamptz,
    hidden_by     uuid REFERENCES users (id) ON DELETE SET NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX product_reviews_one_each ON product_reviews (product_id, author_id);
CREATE INDEX product_reviews_newest ON product_reviews (product_id, created_at DESC, id);
CREATE INDEX product_reviews_helpful ON product_reviews (product_id, helpful_count DESC, id);

CREATE TABLE review_votes (
    review_id  uuid NOT NULL REFERENCES product_reviews (id) ON DELETE CASCADE,
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (review_id, user_id)
);

-- A product's ratings, kept by product_reviews_rating.trigger.sql from its visible reviews, so
-- every listing shows the average without aggregating reviews.
ALTER TABLE products
    ADD COLUMN rating_count integer NOT NULL DEFAULT 0 CHECK (rating_count >= 0),
    ADD COLUMN rating_sum   integer NOT NULL DEFAULT 0 CHECK (rating_sum >= 0);

-- Reports of a recipe, a comment or a review, one per reporter and item, until a moderator
-- resolves them (hiding or restoring the item resolves its open reports).
CREATE TABLE content_reports (
    id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    store_id     uuid REFERENCES stores (id),
    kind         text NOT NULL CHECK (kind IN ('recipe', 'comment', 'review')),
    content_id   uuid NOT NULL,
    reporter_id  uuid REFERENCES users (id) ON DELETE SET NULL,
    reason       text NOT NULL CHECK (length(reason) <= 500),
    created_at   timestamptz NOT NULL DEFAULT now(),
    resolved_at  timestamptz,
    resolved_by  uuid REFERENCES users (id) ON DELETE SET NULL
);
CREATE UNIQUE INDEX content_reports_once ON content_reports (kind, content_id, reporter_id) WHERE resolved_at IS NULL;
CREATE INDEX content_reports_open ON content_reports (store_id, created_at, id) WHERE resolved_at IS NULL;

-- Authors a moderator stopped from posting (recipes, comments, reviews), and by whom.
CREATE TABLE posting_blocks (
    user_id     uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    store_id    uuid REFERENCES stores (id),
    blocked_by  uuid REFERENCES users (id) ON DELETE SET NULL,
    reason      text NOT NULL DEFAULT '' CHECK (length(reason) <= 500),
    created_at  timestamptz NOT NULL DEFAULT now()
);

-- Posting is rate-limited per account (take_posting_place): posts in the current window.
CREATE TABLE posting_windows (
    user_id      uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    window_start timestamptz NOT NULL,
    posts        integer NOT NULL CHECK (posts >= 0)
);
