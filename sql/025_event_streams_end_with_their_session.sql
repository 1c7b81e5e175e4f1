-- 025_event_streams_end_with_their_session: a live event stream is the session's, and ends with it
-- (issue 24: a stream opened before a logout, a disabled account or a password change went on
-- for as long as the connection held).
--
-- Ending a session (any way: every path sets sessions.ended_at) notifies `session <id>` on the
-- channel the instances' EventBus already listens on, and each instance ends that session's
-- streams at once. Expiry needs no notice: a stream knows when its session would expire
-- (`stream_session_deadline`) and asks again then.
CREATE FUNCTION session_ended_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('fulfilment_events', 'session ' || NEW.id::text);
    RETURN NULL;
END
$$;

CREATE TRIGGER sessions_ended AFTER UPDATE OF ended_at ON sessions
FOR EACH ROW WHEN (OLD.ended_at IS NULL AND NEW.ended_at IS NOT NULL)
EXECUTE FUNCTION session_ended_notify();

-- The streams a session has open, on whichever instance, so that their number can be capped
-- across every instance. A stream renews `seen_at` with each heartbeat and removes its row when
-- it ends; the row of an instance that died goes stale and is no longer counted.
CREATE TABLE event_streams (
    id          uuid PRIMARY KEY,
    session_id  uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    opened_at   timestamptz NOT NULL DEFAULT now(),
    seen_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX event_streams_session ON event_streams (session_id);

-- When a live session would expire if nobody used it (idle) or at the latest (maximum age);
-- NULL when it is not live: ended, its account disabled, or expired already.
CREATE FUNCTION stream_session_deadline(p_session uuid, p_idle integer, p_max integer) RETURNS timestamptz
LANGUAGE sql STABLE AS $$
    SELECT least(s.last_used_at + make_interval(secs => p_idle), s.created_at + make_interval(secs => p_max))
      FROM sessions s JOIN users u ON u.id = s.user_id
     WHERE s.id = p_session AND s.ended_at IS NULL AND u.disabled_at IS NULL
       AND s.last_used_at > now() - make_interval(secs => p_idle) AND s.created_at > now() - make_interval(secs => p_max)
$$;

-- Opens a stream for a live session unless it has `p_cap` open already (rows seen within
-- `p_stale` seconds); the session's row is locked, so two opening at once are counted one after
-- the other. Answers the session's deadline; NULL deadline and false: refused (the session is not
-- live, or has too many open).
CREATE FUNCTION open_event_stream(p_stream uuid, p_session uuid, p_cap integer, p_stale double precision,
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

-- A stream's heartbeat and its look at the session: renews the stream's row and answers its
-- session's deadline; NULL when the session is no longer live (the stream then ends).
CREATE FUNCTION renew_event_stream(p_stream uuid, p_idle integer, p_max integer) RETURNS timestamptz
LANGUAGE sql AS $$
    UPDATE event_streams SET seen_at = now() WHERE id = p_stream
    RETURNING stream_session_deadline(session_id, p_idle, p_max)
$$;
