-- Keeps products.rating_count and rating_sum equal to the count and sum of the product's
-- visible reviews (not hidden by a moderator), so every listing shows the average rating
-- without reading a review: the old row's part is taken away and the new row's added.
CREATE OR REPLACE FUNCTION product_reviews_rating() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.hidden_at IS NULL THEN
        UPDATE products SET rating_count = rating_count - 1, rating_sum = rating_sum - OLD.rating WHERE id = OLD.product_id;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.hidden_at IS NULL THEN
        UPDATE products SET rating_count = rating_count + 1, rating_sum = rating_sum + NEW.rating WHERE id = NEW.product_id;
    END IF;
    RETURN NULL;
END
$$;
