-- Puts one message for `p_user` in the mail outbox (messages), in the caller's transaction, in
-- one statement: once per kind, moment and address (a second call for the same moment adds
-- nothing). An account that was erased gets nothing; an address that bounced for good is
-- recorded as suppressed, so staff can see the customer was not told and why. `p_address`: to
-- another address than the account's (a new one to confirm). `p_notify`: wake the senders (an
-- event's messages need not: emit_event's own notification does). Answers the message's id, or NULL.
CREATE OR REPLACE FUNCTION queue_message(
    p_store uuid, p_order uuid, p_user uuid, p_kind text, p_moment text, p_data jsonb, p_address text DEFAULT NULL,
    p_notify boolean DEFAULT true)
RETURNS uuid LANGUAGE plpgsql AS $$
DECLARE
    v_id uuid;
    v_status text;
BEGIN
    INSERT INTO messages (store_id, order_id, user_id, kind, moment, recipient, data, status, last_error)
    SELECT p_store, p_order, u.id, p_kind, p_moment, coalesce(p_address, u.email), coalesce(p_data, '{}'),
           CASE WHEN b.reply IS NULL THEN 'pending' ELSE 'suppressed' END,
           left('Not sent: this address bounced before (' || b.reply || ')', 1000)
    FROM users u LEFT JOIN bounced_addresses b ON b.address_key = lower(coalesce(p_address, u.email))
    WHERE u.id = p_user AND u.erased_at IS NULL
    ON CONFLICT (kind, moment, recipient) DO NOTHING
    RETURNING id, status INTO v_id, v_status;
    IF p_notify AND v_status = 'pending' THEN
        PERFORM pg_notify('fulfilment_events', 'mail');
    END IF;
    RETURN v_id;
END $$;
