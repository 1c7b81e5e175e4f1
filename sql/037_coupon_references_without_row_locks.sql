-- 037_coupon_references_without_row_locks (issue 26): an order and a redemption name their
-- coupon without a foreign key. A foreign key check takes a KEY SHARE lock on the row it names,
-- and with one coupon on many carts every checkout took two (the order's row, the redemption's)
-- on that one row at once: PostgreSQL then keeps a multixact per set of holders, and
-- checkout-bench spent about twice the PostgreSQL CPU per checkout with a coupon as without.
-- Coupons are never deleted (a manager or an admin ends one; no statement deletes them), so
-- what the keys guarded cannot happen; a cart's coupon keeps its key, as a cart names it only
-- when the customer puts it on.
ALTER TABLE orders DROP CONSTRAINT orders_coupon_id_fkey;
ALTER TABLE coupon_redemptions DROP CONSTRAINT coupon_redemptions_coupon_id_fkey;
