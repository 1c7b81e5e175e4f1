-- 051: stock checks asked by short picks (issue 46).
-- A pick closed short (fewer on the shelf than the system said) means the count is wrong: 86 on
-- hand and none on the shelf stayed 86 with nothing flagged. The store's stock page lists each
-- product picked short since its last count (`picks.short` after the product's latest 'count'
-- movement), read, not stored: the count a manager sets clears it. This index finds a store's
-- short picks without reading all its picks.
CREATE INDEX picks_short ON picks (store_id, product_id, picked_at DESC) WHERE short;
