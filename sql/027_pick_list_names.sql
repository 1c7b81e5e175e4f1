-- 027_pick_list_names: one name per thing (issue 25). The API, the console and the service say
-- *pick list*; the tables said *batch*. They now say what everything else says: pick_lists (a
-- picker's list of several orders), pick_list_orders (the orders on it, each with its tote) and
-- picks.pick_list_id. Every constraint and index is renamed to the name PostgreSQL would give
-- it had the tables been made with these names, so a fresh database and an upgraded one agree.
-- A rename keeps every row, index and foreign key; nothing is copied.

ALTER TABLE pick_batches RENAME TO pick_lists;
ALTER TABLE pick_lists RENAME CONSTRAINT pick_batches_pkey TO pick_lists_pkey;
ALTER TABLE pick_lists RENAME CONSTRAINT pick_batches_store_id_id_key TO pick_lists_store_id_id_key;
ALTER TABLE pick_lists RENAME CONSTRAINT pick_batches_check TO pick_lists_check;
ALTER TABLE pick_lists RENAME CONSTRAINT pick_batches_status_check TO pick_lists_status_check;
ALTER TABLE pick_lists RENAME CONSTRAINT pick_batches_created_by_fkey TO pick_lists_created_by_fkey;
ALTER TABLE pick_lists RENAME CONSTRAINT pick_batches_store_id_fkey TO pick_lists_store_id_fkey;
ALTER INDEX pick_batches_open RENAME TO pick_lists_open;

-- `open` stays true while the pick list is open: an order is on at most one open pick list.
ALTER TABLE pick_batch_orders RENAME TO pick_list_orders;
ALTER TABLE pick_list_orders RENAME COLUMN batch_id TO pick_list_id;
ALTER TABLE pick_list_orders RENAME CONSTRAINT pick_batch_orders_pkey TO pick_list_orders_pkey;
ALTER TABLE pick_list_orders RENAME CONSTRAINT pick_batch_orders_batch_id_tote_key TO pick_list_orders_pick_list_id_tote_key;
ALTER TABLE pick_list_orders RENAME CONSTRAINT pick_batch_orders_tote_check TO pick_list_orders_tote_check;
ALTER TABLE pick_list_orders RENAME CONSTRAINT pick_batch_orders_store_id_batch_id_fkey TO pick_list_orders_store_id_pick_list_id_fkey;
ALTER TABLE pick_list_orders RENAME CONSTRAINT pick_batch_orders_store_id_order_id_fkey TO pick_list_orders_store_id_order_id_fkey;
ALTER INDEX pick_batch_orders_one_open_batch RENAME TO pick_list_orders_one_open_list;

ALTER TABLE picks RENAME COLUMN batch_id TO pick_list_id;
ALTER TABLE picks RENAME CONSTRAINT picks_batch_id_order_id_fkey TO picks_pick_list_id_order_id_fkey;
ALTER TABLE picks RENAME CONSTRAINT picks_store_id_batch_id_fkey TO picks_store_id_pick_list_id_fkey;
