-- PUT /v1/cart/coupon in one statement (CouponQueries.apply): puts the coupon whose code is
-- `p_code` (case-insensitively) on the customer's cart, or says why not. The code is looked up
-- at the cart's store (its store, else the customer's chosen one): the store's own coupon
-- first, then the chain's; a live one before an ended one (which is then refused as expired).
-- Another store's coupon is not found there.
--
-- Answers NULL when the coupon is on the cart, else the refusal as JSON:
--   {"code": "too_many_attempts", "retryAfterSeconds": n}  p_limit unknown codes in the window
--   {"code": "no_store_chosen"}
--   {"code": "coupon_unknown"}                              counted against the throttle
--   or coupon_refusal's answer against the cart as it stands now (an empty cart has nothing a
--   coupon applies to: coupon_not_applicable).
--
-- Guessing is throttled per account in coupon_attempts: the customer's row is upserted first,
-- so concurrent applications by one account queue on its lock and cannot pass the limit
-- together; a window that has ended starts again. Only unknown codes count; a right code
-- clears nothing (guesses between uses of a known code still add up), and another account's
-- row is never touched. The database holds it all, so any number of instances share it.
CREATE OR REPLACE FUNCTION apply_cart_coupon(p_customer uuid, p_code text, p_limit integer, p_window_seconds integer)
RETURNS json LANGUAGE plpgsql AS $$
DECLARE
    v_window interval := make_interval(secs => p_window_seconds);
    v_attempts coupon_attempts;
    v_store uuid;
    v_coupon coupons;
    v_subtotal bigint;
    v_eligible bigint;
    v_refusal json;
BEGIN
    INSERT INTO coupon_attempts AS a (customer_id, window_start, failures) VALUES (p_customer, now(), 0)
    ON CONFLICT (customer_id) DO UPDATE SET
        window_start = CASE WHEN a.window_start <= now() - v_window THEN now() ELSE a.window_start END,
        failures = CASE WHEN a.window_start <= now() - v_window THEN 0 ELSE a.failures END
    RETURNING * INTO v_attempts;
    IF v_attempts.failures >= p_limit THEN
        RETURN json_build_object('code', 'too_many_attempts', 'retryAfterSeconds',
            greatest(ceil(extract(epoch FROM v_attempts.window_start + v_window - now())), 1)::integer);
    END IF;

    v_store := cart_store(p_customer);
    IF v_store IS NULL THEN
        RETURN json_build_object('code', 'no_store_chosen');
    END IF;

    SELECT c.* INTO v_coupon FROM coupons c
    WHERE lower(c.code) = lower(p_code) AND (c.store_id = v_store OR c.store_id IS NULL)
    ORDER BY c.ended_at IS NOT NULL, c.store_id IS NULL, c.ended_at DESC
    LIMIT 1;
    IF NOT FOUND THEN
        UPDATE coupon_attempts SET failures = failures + 1 WHERE customer_id = p_customer;
        RETURN json_build_object('code', 'coupon_unknown');
    END IF;

    SELECT coalesce(sum(l.amount), 0), coalesce(sum(l.amount) FILTER (WHERE coupon_applies_to(v_coupon, l.product_id)), 0)
    INTO v_subtotal, v_eligible
    FROM (SELECT i.product_id, coalesce(store_price(i.product_id, v_store), 0) * i.quantity AS amount
          FROM cart_items i WHERE i.customer_id = p_customer) AS l;
    v_refusal := coupon_refusal(v_coupon, p_customer, v_store, v_subtotal, v_eligible, now());
    IF v_refusal IS NOT NULL THEN
        -- With the store's currency, for the money it names (a minimum spend's shortfall).
        RETURN (v_refusal::jsonb || jsonb_build_object('currency', (SELECT s.currency::text FROM stores s WHERE s.id = v_store)))::json;
    END IF;

    INSERT INTO carts (customer_id, store_id, coupon_id) VALUES (p_customer, v_store, v_coupon.id)
    ON CONFLICT (customer_id) DO UPDATE SET coupon_id = EXCLUDED.coupon_id, updated_at = now();
    RETURN NULL;
END
$$;
