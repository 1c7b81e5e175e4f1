-- Opens a stream for a live session unless it has `p_cap` open already (rows seen within
-- `p_stale` seconds); the session's row is locked, so two opening at once are counted one after
-- the other. Answers the session's deadline; NULL deadline and false: refused (the session is not
-- live, or has too many open).
--
-- With `p_take_over` (a page's stream: issue 46), a session at its cap gives the new stream the
-- place of its stalest one instead of refusing: a browser reloading a page leaves its old stream
-- open until a heartbeat finds the connection gone, and seven reloads in six seconds were 429 and
-- no live updates for half a minute. The stream whose place is taken ends at its next heartbeat,
-- when its renewal finds no row (renew_event_stream). The count still never passes the cap.
DROP FUNCTION IF EXISTS open_event_stream(uuid, uuid, integer, double precision, integer, integer);
CREATE OR REPLACE FUNCTION open_event_stream(p_stream uuid, p_session uuid, p_cap integer, p_stale double precision,
                                  p_idle integer, p_max integer, p_take_over boolean,
                                  OUT opened boolean, OUT deadline timestamptz)
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
        IF NOT p_take_over THEN
            RETURN;
        END IF;
        DELETE FROM event_streams WHERE id IN (
            SELECT id FROM event_streams WHERE session_id = p_session
            ORDER BY seen_at, opened_at, id
            LIMIT (SELECT count(*) FROM event_streams WHERE session_id = p_session) - p_cap + 1);
    END IF;
    INSERT INTO event_streams (id, session_id) VALUES (p_stream, p_session);
    opened := true;
END
$$;
