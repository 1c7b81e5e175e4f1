-- Every product's rating count and sum follow its visible reviews (product_reviews_rating).
CREATE OR REPLACE TRIGGER product_reviews_rating AFTER INSERT OR UPDATE OR DELETE ON product_reviews
    FOR EACH ROW EXECUTE FUNCTION product_reviews_rating();
