-- Who a session token belongs to, with both lifetimes enforced by the database's clock, and its
-- use recorded at most every p_touch seconds (to spare a write per request). An expired session
-- is not touched, so it stays expired. No row: no such session, or it was ended (logout, a
-- disabled account, a password change). `SessionQueries.lookUp` is this and nothing else; a
-- statement that includes it returns these columns first, and the service authorises them
-- (`AccessPolicy`) before it uses anything else that statement read.
--
-- PL/pgSQL, so its two statements' plans are cached per connection (a SQL function holding a
-- data-modifying CTE is planned again at every call), and ROWS 1 (the token hash is unique), so
-- a statement that joins it plans index lookups from its one row, not a thousand.
CREATE OR REPLACE FUNCTION session_caller(p_token_hash bytea, p_idle integer, p_max integer, p_touch integer)
RETURNS TABLE (user_id uuid, role text, store_id uuid, session_id uuid, expired boolean)
LANGUAGE plpgsql VOLATILE ROWS 1 AS $$
DECLARE
    v_last_used timestamptz;
BEGIN
    SELECT u.id, u.role, u.store_id, s.id, s.last_used_at,
           s.last_used_at <= now() - make_interval(secs => p_idle) OR s.created_at <= now() - make_interval(secs => p_max)
      INTO user_id, role, store_id, session_id, v_last_used, expired
      FROM sessions s JOIN users u ON u.id = s.user_id
     WHERE s.token_hash = p_token_hash AND s.ended_at IS NULL AND u.disabled_at IS NULL;
    IF NOT FOUND THEN
        RETURN;
    END IF;
    IF NOT expired AND v_last_used < now() - make_interval(secs => p_touch) THEN
        UPDATE sessions SET last_used_at = now()
         WHERE sessions.id = session_id AND sessions.last_used_at < now() - make_interval(secs => p_touch);
    END IF;
    RETURN NEXT;
END
$$;
