-- When a live session would expire if nobody used it (idle) or at the latest (maximum age);
-- NULL when it is not live: ended, its account disabled, or expired already.
CREATE OR REPLACE FUNCTION stream_session_deadline(p_session uuid, p_idle integer, p_max integer) RETURNS timestamptz
LANGUAGE sql STABLE AS $$
    SELECT least(s.last_used_at + make_interval(secs => p_idle), s.created_at + make_interval(secs => p_max))
      FROM sessions s JOIN users u ON u.id = s.user_id
     WHERE s.id = p_session AND s.ended_at IS NULL AND u.disabled_at IS NULL
       AND s.last_used_at > now() - make_interval(secs => p_idle) AND s.created_at > now() - make_interval(secs => p_max)
$$;
