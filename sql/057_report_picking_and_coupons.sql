-- The picking report (issue 46) walks a store's pick lists by when they were completed, over a
-- range of days (`ReportQueries.picking`), with when each was made from the index alone; then
-- each list's picks (no index led by the list before: a pick list's page reads its orders' lines)
-- and the store's substitutes (a partial index: substitutes are few among lines), each checked
-- for a list of the range by its order (no index led by the order before but the open lists').
CREATE INDEX pick_lists_store_completed ON pick_lists (store_id, completed_at) INCLUDE (created_at) WHERE status = 'completed';
CREATE INDEX picks_pick_list ON picks (pick_list_id) INCLUDE (order_id, product_id, short);
CREATE INDEX order_lines_substitutes ON order_lines (store_id, order_id) INCLUDE (substitute_for, substitution_status)
    WHERE substitution_id IS NOT NULL;
CREATE INDEX pick_list_orders_order ON pick_list_orders (order_id) INCLUDE (pick_list_id);

-- The coupons report walks the store's orders that carried a coupon by when they were placed
-- (`ReportQueries.coupons`), with the coupon, what it saved, the status and the total from the
-- index alone: a few orders of a year's, not the year (`orders_store_created` counts the rest).
CREATE INDEX orders_store_coupon_report ON orders (store_id, created_at) INCLUDE (coupon_id, discount_amount, status, total_amount)
    WHERE coupon_id IS NOT NULL;
