import Foundation
import Logging
import PickList
import PostgresNIO

/// Pick lists: creating them from pending orders, recording picks at the shelf, and
/// completing them, which packages every order that is fully picked or closed short.
///
/// Every method takes the caller's `StoreScope`: a list is reached through its id, and the
/// scope in the statement makes another store's list not found (404), as if it did not exist.
package struct PickLists: Sendable {
    package let database: Database

    /// One order's share of a stop after a pick.
    package struct PickOutcome: Sendable {
        package var ordered: Int
        package var picked: Int
        package var short: Bool
    }

    /// What completing a list did to its orders.
    package struct Completion: Sendable {
        package var packaged: [OrderID]
        package var leftPending: [OrderID]
    }

    /// How many orders one list may take.
    package static let maxOrdersRange = 1...200

    /// A new list of up to `maxOrders` (20 by default) of the store's pending orders, or only
    /// of `orderIDs` when given.
    package func create(
        in scope: StoreScope, maxOrders: Int?, orderIDs: [OrderID]?, by staff: Identity, logger: Logger
    ) async throws -> PickListRecord {
        let limit = maxOrders ?? 20
        guard Self.maxOrdersRange.contains(limit) else { throw PickListError.invalidMaxOrders }
        let id = PickListID(UUID())
        // Two lists created at once: SKIP LOCKED keeps them apart, but a claim whose snapshot
        // predates the other's commit can still pick an order the other just put on its list;
        // the unique index refuses it, and the next try (a new snapshot) skips that order.
        let claimedMeanwhile: @Sendable (any Error) -> Bool = {
            if case PickListError.orderClaimedMeanwhile = $0 { true } else { false }
        }
        return try await database.transaction(logger: logger, retrying: claimedMeanwhile) { connection in
            try await PickListError.mappingDatabaseErrors {
                let orders = try await PickListQueries.claimOrders(
                    in: scope, limit: limit, only: orderIDs, on: connection, logger: logger)
                guard !orders.isEmpty else { throw PickListError.noPendingOrders }
                try await PickListQueries.insert(
                    id: id, in: scope, createdBy: staff.userID, orders: orders, on: connection, logger: logger)
                guard let pickList = try await PickListQueries.pickList(id, in: scope, on: connection, logger: logger) else {
                    throw PickListError.unexpectedlyMissing
                }
                return pickList
            }
        }
    }

    /// The store's open lists, oldest first.
    package func open(in scope: StoreScope, logger: Logger) async throws -> [PickListSummary] {
        try await PickListQueries.open(in: scope, on: database.client, logger: logger)
    }

    /// The list, if it is the caller's store's (others get 404, as if it did not exist).
    package func pickList(_ id: PickListID, in scope: StoreScope, logger: Logger) async throws -> PickListRecord {
        guard let pickList = try await PickListQueries.pickList(id, in: scope, on: database.client, logger: logger) else {
            throw PickListError.notFound
        }
        return pickList
    }

    /// Records a pick. `productID` is the stop the picker stands at; `barcode` what they
    /// scanned. A scan that is not that stop's product is `wrong_product`.
    package func pick(
        on id: PickListID, order: OrderID, productID: ProductID?, barcode: String?, quantity: Int, short: Bool,
        in scope: StoreScope, by identity: Identity, logger: Logger
    ) async throws -> PickOutcome {
        guard (0...Cart.maximumQuantity).contains(quantity) else { throw PickListError.invalidQuantity }
        let pickList = try await pickList(id, in: scope, logger: logger)
        guard pickList.isOpen else { throw PickListError.closed }
        let route = try pickList.route()
        let stop: PickStop
        switch (productID.map(PickList.ProductID.init), barcode) {
        case (let product?, let scanned):
            guard let atStop = route.stop(for: product) else {
                throw PickListError.rejected(.wrongProduct(expected: product, scanned: .productID(product)))
            }
            if let scanned, !atStop.identifies(.barcode(scanned)) {
                throw PickListError.rejected(.wrongProduct(expected: atStop.productID, scanned: .barcode(scanned)))
            }
            stop = atStop
        case (nil, let scanned?):
            guard let found = route.stop(matching: .barcode(scanned)) else {
                throw PickListError.rejected(.wrongProduct(expected: PickList.ProductID(""), scanned: .barcode(scanned)))
            }
            stop = found
        case (nil, nil):
            throw PickListError.missingProduct
        }
        let pickOrder = PickList.OrderID(order)
        // Nil when the order has nothing at this stop, which the checks below refuse.
        let line = pickList.line(order: pickOrder, product: stop.productID)
        let already = line?.picked ?? 0
        let progress: PickProgress
        do {
            if short && quantity == 0 {
                let ordered = stop.quantity(for: pickOrder)
                guard ordered > 0 else { throw PickRejection.orderNotOnStop(pickOrder) }
                progress = PickProgress(ordered: ordered, picked: already)
            } else {
                progress = try stop.confirmPick(.productID(stop.productID), quantity: quantity, for: pickOrder, alreadyPicked: already)
            }
        } catch let rejection as PickRejection {
            throw PickListError.rejected(rejection)
        }
        // A stop holds a quantity for an order only through one of its lines.
        guard let line else { throw PickListError.rejected(.orderNotOnStop(pickOrder)) }
        let recorded = try await database.transaction(logger: logger) { connection in
            try await PickListQueries.recordPick(
                on: id, store: pickList.storeID, order: order, product: line.productID, quantity: quantity, short: short,
                by: identity.userID, on: connection, logger: logger)
        }
        switch recorded {
        case .recorded: break
        case .overPick:
            // Someone else's pick landed in between; report what stands now.
            throw PickListError.rejected(.overPick(ordered: progress.ordered, alreadyPicked: already, requested: quantity))
        case .notOnList(let status):
            throw PickListError.orderNotPickable(status: status.flatMap(OrderStatus.init(rawValue:)))
        }
        return PickOutcome(ordered: progress.ordered, picked: progress.picked, short: short)
    }

    /// Packages every pending order of the list whose lines are all picked or closed short,
    /// in one transaction, through the order state machine: short lines release their unpicked
    /// reservation and reduce the order's total (`OrderQueries.releaseShortLines`). Orders not
    /// finished stay pending and return to the pool.
    package func complete(_ id: PickListID, in scope: StoreScope, by identity: Identity, logger: Logger) async throws -> Completion {
        try await database.transaction(logger: logger) { connection in
            guard let status = try await PickListQueries.lockForCompletion(id, in: scope, on: connection, logger: logger) else {
                throw PickListError.notFound
            }
            guard status == "open" else { throw PickListError.closed }
            guard let pickList = try await PickListQueries.pickList(id, in: scope, on: connection, logger: logger) else {
                throw PickListError.notFound
            }
            try await PickListQueries.lockStock(of: id, store: pickList.storeID, on: connection, logger: logger)
            var completion = Completion(packaged: [], leftPending: [])
            for order in pickList.orders where OrderStatus(rawValue: order.status) == .pending {
                let lines = pickList.lines.filter { $0.orderID == order.orderID }
                let done = lines.allSatisfy { $0.picked == $0.quantity || $0.short }
                guard done else {
                    completion.leftPending.append(order.orderID)
                    continue
                }
                let shorts = lines.filter { $0.picked < $0.quantity }
                let reason =
                    shorts.isEmpty
                    ? "picked on pick list \(id)"
                    : "picked on pick list \(id); short: "
                        + shorts.map { "\($0.name) \($0.picked)/\($0.quantity)" }.joined(separator: ", ")
                do {
                    try await OrderTransitions.apply(
                        order: order.orderID, store: pickList.storeID, from: .pending, to: .packaged, reason: reason,
                        actor: identity.userID, on: connection, logger: logger)
                } catch OrderError.invalidTransition {
                    // Moved (e.g. cancelled) by someone else meanwhile: it stays as they left it.
                    completion.leftPending.append(order.orderID)
                    continue
                }
                completion.packaged.append(order.orderID)
            }
            try await PickListQueries.markCompleted(id, on: connection, logger: logger)
            return completion
        }
    }
}
