-- Opens a stream for a live session unless it has `p_cap` open already (rows seen within
-- `p_stale` seconds); the session's row is locked, so two opening at once are counted one after
-- the other. Answers the session's deadline; NULL deadline and false: refused (the session is not
-- live, or has too many open).
CREATE OR REPLACE FUNCTION open_event_stream(p_stream uuid, p_session uuid, p_cap integer, p_stale double precision,
                                  p_idle integer, p_max integer, OUT opened boolean, OUT deadline timestamptz)
LANGUAGE plpgsql AS $$
BEGIN
    opened := false;
    PERFORM 1 FROM sessions WHERE id = p_session FOR UPDATE;
    deadline := stream_session_deadline(p_session, p_idle, p_max);
    IF deadline IS NULL THEN
        RETURN;
    END IF;
    DELETE FROM event_streams WHERE session_id = p_session AND seen_at < now() - make_interval(secs => p_stale);
    IF (SELECT count(*) FROM event_streams WHERE session_id = p_session) >= p_cap THEN
        RETURN;
    END IF;
    INSERT INTO event_streams (id, session_id) VALUES (p_stream, p_session);
    opened := true;
END
$$;
