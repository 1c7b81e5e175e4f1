-- The outbox's events of `p_orders` (which streams and webhooks replay) without the customer:
-- the order summary's customerName becomes `p_name` and its arrival vehicle and note go (issue
-- 32). Erasure (erase_account) and retention (retire_orders) both scrub through here.
CREATE OR REPLACE FUNCTION scrub_order_events(p_orders uuid[], p_name text) RETURNS void LANGUAGE sql AS $$
    UPDATE events e
       SET data = jsonb_set(e.data #- '{order,arrival,vehicle}' #- '{order,arrival,note}', '{order,customerName}', to_jsonb(p_name))
     WHERE e.order_id = ANY (p_orders) AND e.data ? 'order'
$$;
