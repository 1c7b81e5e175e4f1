-- The last part of a user's data export (issue 32), as JSON text without its opening brace:
-- their recipes (with ingredients), comments and reviews as written, and, for the webhook
-- deliveries that carried their orders' events, a count per store (not the payloads: a
-- delivered webhook is the partner's to keep or erase); and the mail sent or kept for them
-- (issue 44): what, to which address, when, and how it went (not the rendered text, which is
-- made from the orders already exported).
CREATE OR REPLACE FUNCTION export_tail(p_user uuid) RETURNS text LANGUAGE sql STABLE AS $$
    SELECT substr(json_build_object(
        'recipes', coalesce((SELECT json_agg(json_build_object('id', r.id, 'storeId', r.store_id, 'title', r.title,
                'bodyMarkdown', r.body_markdown, 'servings', r.servings, 'hidden', r.hidden_at IS NOT NULL,
                'createdAt', api_time(r.created_at), 'updatedAt', api_time(r.updated_at),
                'ingredients', coalesce((SELECT json_agg(json_build_object('index', g.position, 'text', g.text, 'productId', g.product_id,
                                                                           'quantity', g.quantity) ORDER BY g.position)
                                           FROM recipe_ingredients g WHERE g.recipe_id = r.id), '[]')) ORDER BY r.created_at)
            FROM recipes r WHERE r.author_id = p_user), '[]'),
        'comments', coalesce((SELECT json_agg(json_build_object('id', c.id, 'recipeId', c.recipe_id, 'newsId', c.news_id,
                'bodyMarkdown', c.body_markdown, 'hidden', c.hidden_at IS NOT NULL, 'createdAt', api_time(c.created_at)) ORDER BY c.created_at)
            FROM comments c WHERE c.author_id = p_user), '[]'),
        'reviews', coalesce((SELECT json_agg(json_build_object('id', v.id, 'productId', v.product_id, 'storeId', v.store_id,
                'rating', v.rating, 'bodyMarkdown', v.body_markdown, 'hidden', v.hidden_at IS NOT NULL,
                'createdAt', api_time(v.created_at), 'updatedAt', api_time(v.updated_at)) ORDER BY v.created_at)
            FROM product_reviews v WHERE v.author_id = p_user), '[]'),
        'webhookDeliveries', coalesce((SELECT json_agg(json_build_object('storeId', d.store_id, 'count', d.n) ORDER BY d.store_id)
            FROM (SELECT w.store_id, count(*) AS n FROM webhook_deliveries w JOIN events e ON e.id = w.event_id
                    JOIN orders o ON o.id = e.order_id AND o.store_id = e.store_id
                   WHERE o.customer_id = p_user GROUP BY w.store_id) d), '[]'),
        'messages', coalesce((SELECT json_agg(json_build_object('id', m.id, 'kind', m.kind, 'orderId', m.order_id,
                'recipient', m.recipient, 'status', m.status, 'createdAt', api_time(m.created_at), 'sentAt', api_time(m.sent_at))
                ORDER BY m.created_at, m.id)
            FROM messages m
            WHERE m.user_id = p_user
              AND (m.order_id IS NULL OR m.order_id IN (SELECT o.id FROM orders o WHERE o.customer_id = p_user))), '[]'))::text, 2)
$$;
