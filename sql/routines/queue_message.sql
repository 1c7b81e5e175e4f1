-- Puts one message for `p_user` in the mail outbox (messages), in the caller's transaction: once
-- per kind, moment and address (a second call for the same moment adds nothing). An account
-- that was erased gets nothing; an address that bounced for good is recorded as suppressed, so
-- staff can see the customer was not told and why. Answers the message's id, or NULL.
CREATE OR REPLACE FUNCTION queue_message(
    p_store uuid, p_order uuid, p_user uuid, p_kind text, p_moment text, p_data jsonb, p_address text DEFAULT NULL)
RETURNS uuid LANGUAGE plpgsql AS $$
DECLARE
    v_address text;
    v_bounced text;
    v_id uuid;
BEGIN
    SELECT coalesce(p_address, u.email) INTO v_address FROM users u WHERE u.id = p_user AND u.erased_at IS NULL;
    IF v_address IS NULL THEN
        RETURN NULL;
    END IF;
    SELECT b.reply INTO v_bounced FROM bounced_addresses b WHERE b.address_key = lower(v_address);
    INSERT INTO messages (store_id, order_id, user_id, kind, moment, recipient, data, status, last_error)
    VALUES (p_store, p_order, p_user, p_kind, p_moment, v_address, coalesce(p_data, '{}'),
            CASE WHEN v_bounced IS NULL THEN 'pending' ELSE 'suppressed' END,
            CASE WHEN v_bounced IS NULL THEN NULL ELSE left('Not sent: this address bounced before (' || v_bounced || ')', 1000) END)
    ON CONFLICT (kind, moment, recipient) DO NOTHING
    RETURNING id INTO v_id;
    IF v_id IS NOT NULL AND v_bounced IS NULL THEN
        PERFORM pg_notify('fulfilment_events', 'mail');
    END IF;
    RETURN v_id;
END $$;
