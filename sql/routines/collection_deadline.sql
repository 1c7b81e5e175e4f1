-- When an order can no longer be collected, and so when its pickup token expires and the expiry
-- sweep cancels it as uncollected: its slot's end plus the store's grace period; an order
-- without a slot (a store without a calendar), the moment its token is issued (`p_issued`, now
-- unless given) plus the store's collection window.
--
-- The deadline is signed into the token before any statement writes it, so it has two authors
-- (issue 43): this one, which checkout_context asks for a token without a slot and re-issuing
-- a receipt at the desk asks (ReceiptQueries.lockedForReissue); and StoreCalendar.collectionDeadline(for:)
-- (Sources/FulfilmentDomain/Slots/StoreCalendar+Slots.swift), which checkout and moving an order
-- ask for a token with a slot. CollectionDeadlineAgreementTests compares the two over slots in
-- several zones (the days the clocks change included) and grace periods, and checks every token
-- issuer against them. The sweep itself (OrderExpiryQueries) asks the token: its expires_at.
CREATE OR REPLACE FUNCTION collection_deadline(
    p_slot_end timestamptz, p_grace_minutes integer, p_window interval, p_issued timestamptz DEFAULT now())
RETURNS timestamptz LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT coalesce(p_slot_end + make_interval(mins => p_grace_minutes), p_issued + p_window)
$$;
