import Foundation
import PostgresNIO

/// Every refusal of PostgreSQL's that stands for an order error, in one place: a cart pointed
/// at a store that does not exist, and `place_order`'s refusals (`SQLState.placeOrderRefused`).
/// Those that only mean "read again" are `CheckoutRace`'s; `slot_full` is the slot's
/// (`CheckoutQueries.place`, which knows which slot).
extension OrderError: DatabaseErrorMapping {
    package init?(databaseError error: any Error) {
        switch error.sqlState {
        case SQLState.foreignKeyViolation? where error.constraintName == "carts_store_id_fkey":
            self = .storeNotFound
        case SQLState.placeOrderRefused?:
            struct Discontinued: Decodable { var productId: UUID }
            struct Short: Decodable { var productId: UUID, requested: Int, available: Int }
            func details<T: Decodable>(_ type: T.Type) -> T? {
                error.placeOrderDetail.flatMap { try? JSONDecoder().decode(T.self, from: Data($0.utf8)) }
            }
            switch error.placeOrderRefusal {
            case let code? where code.hasPrefix("coupon_"):
                // `coupon_refusal`'s JSON with the coupon's currency: as PUT /v1/cart/coupon refuses.
                self = .couponRefused(details(CouponRefusal.self) ?? CouponRefusal(code: code))
            case "cart_empty": self = .cartEmpty
            // Issue 48: change_order_lines's own refusals.
            case "order_not_found": self = .orderNotFound
            case "product_not_found": self = .productNotFound
            case "order_locked_for_picking": self = .lockedForPicking
            case "order_would_be_empty": self = .wouldBeEmpty
            case "order_not_changeable":
                struct Status: Decodable { var status: String }
                guard let status = details(Status.self), let now = OrderStatus(rawValue: status.status) else { return nil }
                self = .notChangeable(now)
            case "total_too_large": self = .totalTooLarge
            case "price_changed":
                struct Changed: Decodable { var productId: UUID, shownPrice: Int64?, price: Int64, currency: String }
                guard let lines = details([Changed].self) else { return nil }
                self = .priceChanged(
                    lines.map { line in
                        PriceChange(
                            productID: ProductID(line.productId), shown: line.shownPrice.map { Money(amount: $0, currency: line.currency) },
                            price: Money(amount: line.price, currency: line.currency))
                    })
            case "product_discontinued":
                guard let line = details(Discontinued.self) else { return nil }
                self = .productDiscontinued(ProductID(line.productId))
            case "insufficient_stock":
                guard let lines = details([Short].self) else { return nil }
                self = .insufficientStock(
                    lines.map {
                        Shortage(productID: ProductID($0.productId), requested: $0.requested, available: $0.available)
                    })
            default: return nil
            }
        default: return nil
        }
    }
}

extension Error {
    /// The code of a refusal `place_order` raised (its message), if this is one.
    package var placeOrderRefusal: String? {
        guard sqlState == SQLState.placeOrderRefused else { return nil }
        return (self as? PSQLError)?.serverInfo?[.message]
    }

    /// The refusal's details (JSON), if it has any.
    fileprivate var placeOrderDetail: String? { refusalDetail }

    /// The details (JSON) of any routine's refusal (SQLSTATE FC000, the code as its message):
    /// `place_order`'s, and issue 27's `substitute_order_line`, `decide_substitution`, `record_arrival`.
    package var refusalDetail: String? { (self as? PSQLError)?.serverInfo?[.detail] }
}
