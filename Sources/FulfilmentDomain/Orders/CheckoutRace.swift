/// Checkout lost a race and should read again (and then answer with what the winner did): the
/// cart moved to another store between the read and the write, or a concurrent retry with the
/// same idempotency key placed the order first (seen by `place_order` waiting for the cart, or
/// at the unique index).
package enum CheckoutRace: Error, DatabaseErrorMapping {
    case cartChanged
    case alreadyPlaced

    package init?(databaseError error: any Error) {
        switch error.sqlState {
        case SQLState.placeOrderRefused? where error.placeOrderRefusal == "cart_changed": self = .cartChanged
        case SQLState.placeOrderRefused? where error.placeOrderRefusal == "already_placed": self = .alreadyPlaced
        case SQLState.uniqueViolation? where error.constraintName == "orders_customer_id_idempotency_key_key": self = .alreadyPlaced
        default: return nil
        }
    }
}
