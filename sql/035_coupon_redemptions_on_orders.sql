-- 035_coupon_redemptions_on_orders: an order as the service reads it (order_view, migration 017)
-- also carries what its coupon saves now (orders.discount_amount, issue 26): the type gains the
-- column at its end, so every reader of the columns before it is unchanged; order_view.sql
-- returns it.
ALTER TYPE order_view ADD ATTRIBUTE discount_amount bigint;
