-- A password reset asked for `p_email_key` (lower-cased) by client `p_client`, in one statement
-- whether or not an account has the address, so the answer takes the same time either way
-- (no enumeration). Throttled per address and per client over the last hour, counted whether
-- or not the address exists: answers the seconds to wait when over, else 0.
--
-- When an active account has the address: earlier open resets end, the new one (`p_id`, its
-- link token's SHA-256 and the data key that made it) is valid 30 minutes, and its message is
-- queued in this transaction.
CREATE OR REPLACE FUNCTION request_password_reset(
    p_email_key text, p_client text, p_id uuid, p_token_hash bytea, p_key_id integer, p_per_address integer, p_per_client integer)
RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
    v_user uuid;
    v_wait integer;
BEGIN
    DELETE FROM password_reset_requests r
    WHERE (r.email_key = p_email_key OR r.client = p_client) AND r.at < now() - interval '1 hour';
    SELECT ceil(extract(epoch FROM max(r.at) + interval '1 hour' - now()))::int INTO v_wait
    FROM (SELECT q.at FROM password_reset_requests q WHERE q.email_key = p_email_key ORDER BY q.at DESC OFFSET p_per_address - 1) r
    HAVING count(*) > 0;
    IF v_wait IS NULL THEN
        SELECT ceil(extract(epoch FROM max(r.at) + interval '1 hour' - now()))::int INTO v_wait
        FROM (SELECT q.at FROM password_reset_requests q WHERE q.client = p_client ORDER BY q.at DESC OFFSET p_per_client - 1) r
        HAVING count(*) > 0;
    END IF;
    IF v_wait IS NOT NULL THEN
        RETURN greatest(v_wait, 1);
    END IF;
    INSERT INTO password_reset_requests (email_key, client) VALUES (p_email_key, p_client);

    SELECT u.id INTO v_user FROM users u
    WHERE lower(u.email) = p_email_key AND u.erased_at IS NULL AND u.disabled_at IS NULL;
    IF v_user IS NOT NULL THEN
        UPDATE password_resets SET ended_at = now() WHERE user_id = v_user AND used_at IS NULL AND ended_at IS NULL;
        INSERT INTO password_resets (id, user_id, token_hash, key_id, expires_at)
        VALUES (p_id, v_user, p_token_hash, p_key_id, now() + interval '30 minutes');
        PERFORM queue_message(NULL, NULL, v_user, 'password_reset', p_id::text, jsonb_build_object('linkId', p_id));
    END IF;
    RETURN 0;
END $$;
