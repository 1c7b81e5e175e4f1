-- Whether `p_user` may post (a recipe, a comment, a review) now, taking a place in their
-- window when they may: NULL, or the refusal as JSON:
--   {"code": "posting_blocked"}                               the chain's admin blocked them
--                                                             (a store's block is the post's
--                                                             store's: posting_blocked, a trigger)
--   {"code": "too_many_posts", "retryAfterSeconds": n}        p_limit posts in the window
-- The account's posting_windows row is upserted first, so one account's concurrent posts queue
-- on its lock and cannot pass the limit together; a window that has ended starts again. The
-- caller posts in the same transaction, so a post that fails gives its place back.
CREATE OR REPLACE FUNCTION posting_refusal(p_user uuid, p_limit integer, p_window_seconds integer)
RETURNS json LANGUAGE plpgsql AS $$
DECLARE
    v_window interval := make_interval(secs => p_window_seconds);
    v_place posting_windows;
BEGIN
    IF EXISTS (SELECT 1 FROM posting_blocks b WHERE b.user_id = p_user AND b.store_id IS NULL) THEN
        RETURN json_build_object('code', 'posting_blocked');
    END IF;
    INSERT INTO posting_windows AS w (user_id, window_start, posts) VALUES (p_user, now(), 1)
    ON CONFLICT (user_id) DO UPDATE
        SET window_start = CASE WHEN w.window_start <= now() - v_window THEN now() ELSE w.window_start END,
            posts = CASE WHEN w.window_start <= now() - v_window THEN 1 ELSE w.posts + 1 END
    RETURNING w.* INTO v_place;
    IF v_place.posts > p_limit THEN
        RETURN json_build_object('code', 'too_many_posts',
            'retryAfterSeconds', greatest(1, ceil(extract(epoch FROM v_place.window_start + v_window - now())))::integer);
    END IF;
    RETURN NULL;
END
$$;
