/// What a message tells (issue 44): one per moment of an order, of a favourite, or of an account.
package enum MessageKind: String, Sendable, CaseIterable {
    case orderPlaced = "order_placed"
    case readyForPickup = "ready_for_pickup"
    case substitutionProposed = "substitution_proposed"
    case collectionReminder = "collection_reminder"
    case orderCancelled = "order_cancelled"
    case refundMade = "refund_made"
    case backInStock = "back_in_stock"
    case passwordReset = "password_reset"
    case emailChangeConfirmation = "email_change_confirmation"
    case emailChangedNotice = "email_changed_notice"
    /// A store's new staff member or manager, asked to choose their password (issue 46).
    case staffInvite = "staff_invite"
    /// The customer's order will not be ready in time (issue 47, `order.late`): the new time, and
    /// what they may do about it.
    case orderLate = "order_late"

    /// Sent only to a customer who chose it, and carrying a one-click unsubscribe (RFC 8058);
    /// every other kind is transactional and always goes.
    package var isOptional: Bool { self == .backInStock || self == .collectionReminder }

    /// How staff read it in the Mail page and on an order.
    package var label: String {
        switch self {
        case .orderPlaced: "Order placed"
        case .readyForPickup: "Ready for pickup"
        case .substitutionProposed: "Substitution proposed"
        case .collectionReminder: "Collection reminder"
        case .orderCancelled: "Order cancelled"
        case .refundMade: "Refund made"
        case .backInStock: "Back in stock"
        case .passwordReset: "Password reset"
        case .emailChangeConfirmation: "Confirm new email"
        case .emailChangedNotice: "Email changed"
        case .staffInvite: "Invitation"
        case .orderLate: "Order late"
        }
    }
}

/// Where a message is: `pending` (to send, or kept when no mail server is configured), `sent`
/// (the mail server accepted it), `failed` (refused for good, or retries ran out), `suppressed`
/// (never sent: the address bounced before, or the account was erased).
package enum MessageStatus: String, Sendable, CaseIterable {
    case pending
    case sent
    case failed
    case suppressed
}
