-- The first part of a user's data export (GET /v1/me/export, issue 32), as JSON text without
-- its closing brace, so the orders can follow it page by page: when, the account (with its role
-- and store), its sessions (when each began, was last used and ended: never a token), the cart
-- and its coupon, the chosen store and the favourites, and the identity providers it signs in
-- with (issue 33: the provider, the subject it knows the user by, the email it vouched for).
CREATE OR REPLACE FUNCTION export_head(p_user uuid) RETURNS text LANGUAGE sql STABLE AS $$
    SELECT left(json_build_object(
        'exportedAt', api_time(now()),
        'account', (SELECT json_build_object('id', u.id, 'email', u.email, 'name', u.name, 'role', u.role, 'storeId', u.store_id,
                                             'createdAt', api_time(u.created_at), 'disabledAt', api_time(u.disabled_at))
                      FROM users u WHERE u.id = p_user),
        'sessions', coalesce((SELECT json_agg(json_build_object('createdAt', api_time(s.created_at), 'lastUsedAt', api_time(s.last_used_at),
                                                                'endedAt', api_time(s.ended_at), 'endedReason', s.ended_reason) ORDER BY s.created_at)
                                FROM sessions s WHERE s.user_id = p_user), '[]'),
        'identities', coalesce((SELECT json_agg(json_build_object('issuer', p.issuer, 'provider', p.name, 'subject', l.subject, 'email', l.email,
                                                                  'linkedAt', api_time(l.linked_at), 'lastSignedInAt', api_time(l.last_signed_in_at))
                                                ORDER BY l.linked_at)
                                  FROM identity_links l JOIN identity_providers p ON p.id = l.provider_id WHERE l.user_id = p_user), '[]'),
        'chosenStoreId', (SELECT cs.store_id FROM customer_stores cs WHERE cs.user_id = p_user),
        'cart', (SELECT json_build_object('storeId', c.store_id, 'couponId', c.coupon_id, 'updatedAt', api_time(c.updated_at),
                                          'items', coalesce((SELECT json_agg(json_build_object('productId', i.product_id, 'quantity', i.quantity,
                                              'shownPrice', i.quoted_price, 'addedAt', api_time(i.added_at), 'substitution', i.substitution,
                                              'substituteIds', i.substitute_ids) ORDER BY i.added_at) FROM cart_items i WHERE i.customer_id = p_user), '[]'))
                   FROM carts c WHERE c.customer_id = p_user),
        'favourites', coalesce((SELECT json_agg(json_build_object('productId', f.product_id, 'since', api_time(f.created_at)) ORDER BY f.created_at)
                                  FROM favourites f WHERE f.user_id = p_user), '[]'))::text, -1)
$$;
