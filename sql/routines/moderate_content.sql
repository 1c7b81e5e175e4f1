-- Hides (`p_hide`) or restores a recipe, a comment or a review as a moderator whose store is
-- `p_scope` (NULL: the chain's admin, every store's content; a manager reaches only content of
-- their store), and resolves the content's open reports. Hiding what is hidden, or restoring
-- what is visible, changes nothing but still resolves its reports.
-- Answers the content's `hidden` and the reports it resolved, or no row when there is no such
-- content within the scope.
CREATE OR REPLACE FUNCTION moderate_content(p_kind text, p_id uuid, p_hide boolean, p_moderator uuid, p_scope uuid)
RETURNS TABLE (hidden boolean, resolved integer) LANGUAGE plpgsql AS $$
DECLARE
    v_store uuid;
    v_found boolean;
BEGIN
    SELECT true, c.store_id INTO v_found, v_store FROM community_content c WHERE c.kind = p_kind AND c.id = p_id;
    IF v_found IS NULL OR (p_scope IS NOT NULL AND v_store IS DISTINCT FROM p_scope) THEN
        RETURN;
    END IF;
    IF p_kind = 'recipe' THEN
        UPDATE recipes SET hidden_at = CASE WHEN p_hide THEN coalesce(hidden_at, now()) END,
                           hidden_by = CASE WHEN p_hide THEN coalesce(hidden_by, p_moderator) END WHERE id = p_id;
    ELSIF p_kind = 'comment' THEN
        UPDATE comments SET hidden_at = CASE WHEN p_hide THEN coalesce(hidden_at, now()) END,
                            hidden_by = CASE WHEN p_hide THEN coalesce(hidden_by, p_moderator) END WHERE id = p_id;
    ELSE
        UPDATE product_reviews SET hidden_at = CASE WHEN p_hide THEN coalesce(hidden_at, now()) END,
                                   hidden_by = CASE WHEN p_hide THEN coalesce(hidden_by, p_moderator) END WHERE id = p_id;
    END IF;
    UPDATE content_reports SET resolved_at = now(), resolved_by = p_moderator
     WHERE kind = p_kind AND content_id = p_id AND resolved_at IS NULL;
    GET DIAGNOSTICS resolved = ROW_COUNT;
    hidden := p_hide;
    RETURN NEXT;
END
$$;
