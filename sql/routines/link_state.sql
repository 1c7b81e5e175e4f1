-- Whether a mailed link (a password reset, an email change) still works, from its row: 'ok', or
-- why not: 'used', 'superseded' (a newer one was asked for), 'expired'. The one rule the reset's
-- check (PasswordResets.status), confirm_password_reset and confirm_email_change apply.
CREATE OR REPLACE FUNCTION link_state(p_used timestamptz, p_ended timestamptz, p_expires timestamptz)
RETURNS text LANGUAGE sql STABLE AS $$
    SELECT CASE WHEN p_used IS NOT NULL THEN 'used' WHEN p_ended IS NOT NULL THEN 'superseded'
                WHEN p_expires <= now() THEN 'expired' ELSE 'ok' END
$$;
