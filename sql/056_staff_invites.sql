-- Issue 46: a store's manager adds someone by their email address without choosing a password
-- for them. The account is made without one (`Accounts.noPassword`) and a password-reset link
-- (the same `password_resets` row and page) valid for seven days is mailed as an invitation,
-- a message of its own kind.
ALTER TABLE messages DROP CONSTRAINT messages_kind_check;
ALTER TABLE messages ADD CONSTRAINT messages_kind_check CHECK (kind IN (
    'order_placed', 'ready_for_pickup', 'substitution_proposed', 'collection_reminder',
    'order_cancelled', 'refund_made', 'back_in_stock', 'password_reset',
    'email_change_confirmation', 'email_changed_notice', 'staff_invite'));
