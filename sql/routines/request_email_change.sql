-- `p_user` asks to use `p_new_email`: earlier open changes end, the new one waits for its
-- confirmation (24 hours), and two messages are queued in this transaction: the link to the new
-- address, a notice to the old. Answers 'ok', or 'email_taken' when another account has the
-- address (checked again, under the unique index, at confirmation).
CREATE OR REPLACE FUNCTION request_email_change(
    p_user uuid, p_new_email text, p_id uuid, p_token_hash bytea, p_key_id integer)
RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM users u WHERE lower(u.email) = lower(p_new_email) AND u.id <> p_user) THEN
        RETURN 'email_taken';
    END IF;
    UPDATE email_changes SET ended_at = now() WHERE user_id = p_user AND confirmed_at IS NULL AND ended_at IS NULL;
    INSERT INTO email_changes (id, user_id, new_email, token_hash, key_id, expires_at)
    VALUES (p_id, p_user, p_new_email, p_token_hash, p_key_id, now() + interval '24 hours');
    PERFORM queue_message(NULL, NULL, p_user, 'email_change_confirmation', p_id::text,
                          jsonb_build_object('linkId', p_id), p_new_email);
    PERFORM queue_message(NULL, NULL, p_user, 'email_changed_notice', p_id::text,
                          jsonb_build_object('newEmail', p_new_email));
    RETURN 'ok';
END $$;
