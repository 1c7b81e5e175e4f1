-- Uses the reset whose link token hashes to `p_token_hash`: sets the account's password to
-- `p_new_hash` and ends every session of it (their live streams close, session_ended_notify),
-- in one statement. Answers 'ok', or why not: 'unknown', 'used', 'superseded' (a newer reset was
-- asked for), 'expired'. The row is locked, so a link used twice at once works once.
CREATE OR REPLACE FUNCTION confirm_password_reset(p_token_hash bytea, p_new_hash text)
RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    v_reset password_resets;
    v_state text;
BEGIN
    SELECT * INTO v_reset FROM password_resets r WHERE r.token_hash = p_token_hash FOR UPDATE;
    IF v_reset.id IS NULL THEN
        RETURN 'unknown';
    END IF;
    v_state := link_state(v_reset.used_at, v_reset.ended_at, v_reset.expires_at);
    IF v_state <> 'ok' THEN
        RETURN v_state;
    END IF;
    UPDATE users SET password_hash = p_new_hash
    WHERE id = v_reset.user_id AND erased_at IS NULL AND disabled_at IS NULL;
    IF NOT FOUND THEN
        RETURN 'unknown';
    END IF;
    UPDATE password_resets SET used_at = now() WHERE id = v_reset.id;
    UPDATE sessions SET ended_at = now(), ended_reason = 'password_changed'
    WHERE user_id = v_reset.user_id AND ended_at IS NULL;
    RETURN 'ok';
END $$;
