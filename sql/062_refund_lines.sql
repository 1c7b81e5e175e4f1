-- Refunds by line (issue 46): a refund says which lines it pays back and how much of each, so a
-- manager can pay back a short-picked or removed line on its own, and never more for a line
-- than was paid for it after its share of a coupon, less what was already paid back for it
-- (`LineRefunds`). A refund without lines (the whole amount owed, at the desk or by the payment
-- provider) is shared over the lines that owe it, in the lines' order, so every refund's money
-- is on a line and what a line may still give back is always its owed less these rows.
CREATE TABLE refund_lines (
    refund_id   uuid NOT NULL REFERENCES refunds (id),
    store_id    uuid NOT NULL,
    order_id    uuid NOT NULL,
    product_id  uuid NOT NULL,
    amount      bigint NOT NULL CHECK (amount > 0),
    PRIMARY KEY (refund_id, product_id),
    FOREIGN KEY (order_id, product_id) REFERENCES order_lines (order_id, product_id)
);

-- What each line has given back already, read by order_view for every line of an order.
CREATE INDEX refund_lines_order_line ON refund_lines (order_id, product_id) INCLUDE (amount);
