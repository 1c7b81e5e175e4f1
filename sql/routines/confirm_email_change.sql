-- Confirms the change whose link token hashes to `p_token_hash`: the account takes the new
-- address now. Answers the account's id as text, or why not: 'unknown', 'used', 'superseded',
-- 'expired', 'email_taken' (another account took the address meanwhile).
CREATE OR REPLACE FUNCTION confirm_email_change(p_token_hash bytea)
RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    v_change email_changes;
BEGIN
    SELECT * INTO v_change FROM email_changes c WHERE c.token_hash = p_token_hash FOR UPDATE;
    IF v_change.id IS NULL THEN
        RETURN 'unknown';
    ELSIF v_change.confirmed_at IS NOT NULL THEN
        RETURN 'used';
    ELSIF v_change.ended_at IS NOT NULL THEN
        RETURN 'superseded';
    ELSIF v_change.expires_at <= now() THEN
        RETURN 'expired';
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
