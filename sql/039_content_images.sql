-- 039_content_images (issue 31): a news item's or a recipe's optional image, kept in the
-- database like product images (so every instance serves it) and checked the same way (PNG or
-- JPEG by its bytes, at most 2 MiB). One per item; it goes with its item.
CREATE TABLE content_images (
    news_id      uuid UNIQUE REFERENCES news_items (id) ON DELETE CASCADE,
    recipe_id    uuid UNIQUE REFERENCES recipes (id) ON DELETE CASCADE,
    content_type text NOT NULL CHECK (content_type IN ('image/png', 'image/jpeg')),
    bytes        bytea NOT NULL,
    sha256       bytea NOT NULL,
    updated_at   timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT content_images_of_one CHECK (num_nonnulls(news_id, recipe_id) = 1)
);
