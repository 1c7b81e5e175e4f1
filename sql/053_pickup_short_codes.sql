-- The short code printed beside a receipt's QR (issue 46): twelve letters the desk can type when
-- the QR will not scan, computed from the token's text by the database itself, so every path
-- that writes a token (checkout, a re-issued receipt, a moved slot) gives it its code without a
-- word of its own. `QRReceipt.PickupShortCode.of` computes the same in Swift for the receipt
-- (md5 is immutable, as a generated column needs; the agreement test holds the two together).
ALTER TABLE pickup_tokens
    ADD COLUMN short_code text GENERATED ALWAYS AS (translate(left(md5(text), 12), '0123456789abcdef', 'BCDFGHJKLMNPQRST')) STORED;
-- The desk's lookup: a code at the caller's store.
CREATE INDEX pickup_tokens_short_code ON pickup_tokens (store_id, short_code);
