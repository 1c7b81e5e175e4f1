-- 034_coupons_in_cart: the cart shows its coupon (issue 26). cart_view gains each line's share
-- of the discount and the coupon itself (sql/routines/cart_coupon.sql), and set_cart_line_viewed,
-- which answers cart_view's rows, gains them too: both change their return shape, so both are
-- dropped here and made again by their routine files.
DROP FUNCTION IF EXISTS cart_view(uuid);
DROP FUNCTION IF EXISTS set_cart_line_viewed(uuid, uuid, integer);
