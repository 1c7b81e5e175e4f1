-- Whether a viewer (`p_viewer`, their role and store; all NULL when not signed in) may see a
-- piece of community content: visible content to everyone; hidden content (a moderator hid it)
-- only to its author, to the manager of its store and to the chain's admin. Every read of news
-- comments, recipes and reviews asks this (Community/Viewer.swift binds the viewer).
CREATE OR REPLACE FUNCTION content_visible(
    p_hidden_at timestamptz, p_author uuid, p_store uuid, p_viewer uuid, p_role text, p_viewer_store uuid
) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
    SELECT p_hidden_at IS NULL OR p_author = p_viewer OR p_role = 'admin' OR (p_role = 'manager' AND p_store = p_viewer_store)
$$;
