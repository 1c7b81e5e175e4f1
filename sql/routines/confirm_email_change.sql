-- Confirms the change whose link token hashes to `p_token_hash`: the account takes the new
-- address now. Answers the account's id as text, or why not: 'unknown', 'used', 'superseded',
-- 'expired', 'email_taken' (another account took the address meanwhile).
CREATE OR REPLACE FUNCTION confirm_email_change(p_token_hash bytea)
RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    v_change email_changes;
    v_state text;
BEGIN
    SELECT * INTO v_change FROM email_changes c WHERE c.token_hash = p_token_hash FOR UPDATE;
    IF v_change.id IS NULL THEN
        RETURN 'unknown';
    END IF;
    v_state := link_state(v_change.confirmed_at, v_change.ended_at, v_change.expires_at);
    IF v_state <> 'ok' THEN
        RETURN v_state;
    END IF;
    BEGIN
        UPDATE users SET email = v_change.new_email WHERE id = v_change.user_id AND erased_at IS NULL;
        IF NOT FOUND THEN
            RETURN 'unknown';
        END IF;
    EXCEPTION WHEN unique_violation THEN
        RETURN 'email_taken';
    END;
    UPDATE email_changes SET confirmed_at = now() WHERE id = v_change.id;
    RETURN v_change.user_id::text;
END $$;
