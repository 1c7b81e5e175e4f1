-- Erases `p_user` (issue 32), in one statement: what is personal goes, what the shop's books
-- need stays under a tombstone. `p_by` is who asked (the user, a manager, the chain's admin),
-- `p_reason` why (account_erasures), `p_delete_content` whether their recipes, comments and
-- reviews go too (else they stay, attributed to no one: "a former customer").
--
-- Answers NULL when done (or already done), else the refusal as JSON:
--   {"code": "open_orders", "orders": [{"id", "number", "status"}]}  a customer's order is
--   still pending, packaged or delivering: cancel or collect it first.
--
-- Deleted: sessions (and so their live streams), the cart, favourites, the chosen store, coupon
-- attempts, posting limits and blocks, helpful votes, login throttling by their email, and the
-- arrival notes and vehicle on their orders.
-- Kept, anonymised: the account row (email `erased-<id>@erased.invalid`, name "Deleted customer"
-- or "Former staff member", no password, disabled), and with it the orders, lines, payments,
-- refunds and coupon redemptions. Their orders' events in the outbox (which streams and
-- webhooks replay) have the customer's name and arrival details scrubbed; a webhook already
-- delivered is the partner's to erase.
CREATE OR REPLACE FUNCTION erase_account(p_user uuid, p_by uuid, p_reason text, p_delete_content boolean)
RETURNS json LANGUAGE plpgsql AS $$
DECLARE
    v_user users;
    v_open json;
    v_tombstone text;
BEGIN
    SELECT * INTO v_user FROM users u WHERE u.id = p_user FOR UPDATE;
    IF v_user.id IS NULL OR v_user.erased_at IS NOT NULL THEN
        RETURN NULL;
    END IF;
    SELECT json_agg(json_build_object('id', o.id, 'number', o.number, 'status', o.status) ORDER BY o.created_at)
      INTO v_open
      FROM orders o WHERE o.customer_id = p_user AND o.status IN ('pending', 'packaged', 'delivering');
    IF v_open IS NOT NULL THEN
        RETURN json_build_object('code', 'open_orders', 'orders', v_open);
    END IF;
    v_tombstone := CASE WHEN v_user.role = 'customer' THEN 'Deleted customer' ELSE 'Former staff member' END;

    -- Ended first, so their live streams close now (sessions_ended), then gone.
    UPDATE sessions SET ended_at = now(), ended_reason = 'disabled' WHERE user_id = p_user AND ended_at IS NULL;
    DELETE FROM sessions WHERE user_id = p_user;
    DELETE FROM cart_items WHERE customer_id = p_user;
    DELETE FROM carts WHERE customer_id = p_user;
    DELETE FROM favourites WHERE user_id = p_user;
    DELETE FROM customer_stores WHERE user_id = p_user;
    DELETE FROM coupon_attempts WHERE customer_id = p_user;
    DELETE FROM posting_windows WHERE user_id = p_user;
    DELETE FROM posting_blocks WHERE user_id = p_user;
    DELETE FROM login_throttle WHERE email_key = lower(v_user.email);
    -- Their helpful votes go, and the counts they made with them.
    UPDATE product_reviews v SET helpful_count = helpful_count - 1
      FROM review_votes r WHERE r.review_id = v.id AND r.user_id = p_user;
    DELETE FROM review_votes WHERE user_id = p_user;

    UPDATE orders SET arrival_vehicle = NULL, arrival_note = NULL
     WHERE customer_id = p_user AND (arrival_vehicle IS NOT NULL OR arrival_note IS NOT NULL);
    -- The people they named to collect for them (issue 48).
    UPDATE collector_passes c SET name = 'Deleted collector'
      FROM orders o WHERE o.id = c.order_id AND o.customer_id = p_user AND c.name <> 'Deleted collector';
    -- The outbox: an order event's payload is the order's summary (order_summary_json), with the
    -- customer's name and, once they arrived, their vehicle and note.
    PERFORM scrub_order_events(ARRAY(SELECT o.id FROM orders o WHERE o.customer_id = p_user), v_tombstone);

    IF p_delete_content THEN
        DELETE FROM comments WHERE author_id = p_user;
        DELETE FROM recipes WHERE author_id = p_user;
        DELETE FROM product_reviews WHERE author_id = p_user;
    ELSE
        UPDATE comments SET author_id = NULL WHERE author_id = p_user;
        UPDATE recipes SET author_id = NULL WHERE author_id = p_user;
        UPDATE product_reviews SET author_id = NULL WHERE author_id = p_user;
    END IF;
    UPDATE content_reports SET reporter_id = NULL WHERE reporter_id = p_user;
    UPDATE news_items SET author_id = NULL WHERE author_id = p_user;

    -- The providers it signed in with (issue 33): no provider's subject leads here any more.
    DELETE FROM identity_links WHERE user_id = p_user;
    DELETE FROM provider_sign_ins WHERE user_id = p_user;
    -- Their mail (issue 44): the record of what was sent stays for the order's history, without
    -- the address or what it quoted; unsent mail is never sent; open links stop working.
    -- (Its orders' messages through messages_order, the others through messages_unordered_user.)
    UPDATE messages SET recipient = 'erased-' || p_user || '@erased.invalid', data = '{}',
                        status = CASE WHEN status = 'pending' THEN 'suppressed' ELSE status END,
                        last_error = CASE WHEN status = 'pending' THEN 'Not sent: the account was erased' ELSE last_error END
     WHERE user_id = p_user
       AND (order_id IS NULL OR order_id IN (SELECT o.id FROM orders o WHERE o.customer_id = p_user));
    DELETE FROM password_resets WHERE user_id = p_user;
    DELETE FROM email_changes WHERE user_id = p_user;
    UPDATE users SET email = 'erased-' || id || '@erased.invalid', name = v_tombstone, password_hash = '!',
                     disabled_at = coalesce(disabled_at, now()), erased_at = now()
     WHERE id = p_user;
    INSERT INTO account_erasures (user_id, role, erased_by, reason, content_deleted)
    VALUES (p_user, v_user.role, coalesce(p_by, p_user), p_reason, p_delete_content);
    RETURN NULL;
END
$$;
