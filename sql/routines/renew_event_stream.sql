-- A stream's heartbeat and its look at the session: renews the stream's row and answers its
-- session's deadline; NULL when the session is no longer live (the stream then ends).
CREATE OR REPLACE FUNCTION renew_event_stream(p_stream uuid, p_idle integer, p_max integer) RETURNS timestamptz
LANGUAGE sql AS $$
    UPDATE event_streams SET seen_at = now() WHERE id = p_stream
    RETURNING stream_session_deadline(session_id, p_idle, p_max)
$$;
