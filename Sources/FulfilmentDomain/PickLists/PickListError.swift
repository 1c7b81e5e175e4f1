import PickList

/// What can go wrong creating, reading, picking and completing a pick list.
package enum PickListError: Error, APIErrorConvertible, DatabaseErrorMapping {
    case notFound
    case noPendingOrders
    case invalidMaxOrders
    case closed
    case invalidWidth
    case rejected(PickRejection)
    case missingProduct
    case invalidQuantity
    /// The order is no longer pending on this list: packaged or cancelled by hand meanwhile.
    case orderNotPickable(status: OrderStatus?)
    /// Another pick list created at the same moment put one of the claimed orders on its list
    /// first (`PickListQueries.oneOpenListIndex`). `PickLists.create` tries again, with a new
    /// snapshot that skips that order; only if every try loses is the answer the busy one.
    case orderClaimedMeanwhile
    /// The pick list just written in this transaction could not be read back: a bug, a 500.
    case unexpectedlyMissing

    package init?(databaseError error: any Error) {
        switch (error.sqlState, error.constraintName) {
        case (SQLState.uniqueViolation?, PickListQueries.oneOpenListIndex?): self = .orderClaimedMeanwhile
        default: return nil
        }
    }

    package var apiError: APIError {
        switch self {
        case .notFound: .notFound("That pick list")
        case .noPendingOrders:
            APIError(.conflict, "no_pending_orders", "There are no pending orders that are not already on an open pick list.")
        case .invalidMaxOrders:
            APIError(.unprocessableContent, "invalid_field", "maxOrders must be between 1 and 200.", details: ["field": "maxOrders"])
        case .closed: APIError(.conflict, "pick_list_closed", "This pick list is already completed.")
        case .invalidWidth:
            APIError(.unprocessableContent, "invalid_field", "width must be 80 or 42.", details: ["field": "width"])
        case .missingProduct:
            APIError(.unprocessableContent, "missing_field", "Send the scanned barcode or the productId.", details: ["field": "barcode"])
        case .invalidQuantity:
            APIError(
                .unprocessableContent, "invalid_quantity", "The quantity must be a whole number from 0 to 99.",
                details: ["field": "quantity"])
        case .orderNotPickable(let status):
            APIError(
                .conflict, "order_not_pickable",
                "That order is no longer waiting on this pick list\(status.map { " (it is \($0.rawValue))" } ?? ""); put its items back.",
                details: ["status": status.map { .string($0.rawValue) } ?? .null])
        case .orderClaimedMeanwhile: DatabaseBusy().apiError
        case .unexpectedlyMissing: .internal
        case .rejected(let rejection):
            switch rejection {
            case .wrongProduct:
                APIError(.unprocessableContent, "wrong_product", "That is not the product on this stop: check the shelf label.")
            case .orderNotOnStop:
                APIError(.unprocessableContent, "order_not_on_stop", "That order has nothing of this product on this pick list.")
            case .nonPositiveQuantity:
                APIError(
                    .unprocessableContent, "invalid_quantity", "The quantity must be at least 1 (or 0 with short: true).",
                    details: ["field": "quantity"])
            case .overPick(let ordered, let alreadyPicked, let requested):
                APIError(
                    .unprocessableContent, "over_pick", "That is more than was ordered.",
                    details: ["ordered": .int(ordered), "alreadyPicked": .int(alreadyPicked), "requested": .int(requested)])
            }
        }
    }
}
