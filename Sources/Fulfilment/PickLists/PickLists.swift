import Foundation
import Logging
import PickList
import PostgresNIO

/// Pick batches: creating them from pending orders, recording picks at the shelf, and
/// completing them, which packages every order that is fully picked or closed short.
struct PickLists: Sendable {
    let database: Database

    struct PickOutcome: Sendable {
        var ordered: Int
        var picked: Int
        var short: Bool
    }

    struct Completion: Sendable {
        var packaged: [UUID]
        var leftPending: [UUID]
    }

    func create(store: StoreID, maxOrders: Int?, orderIDs: [UUID]?, by staff: Identity, logger: Logger) async throws -> PickBatch {
        let limit = maxOrders ?? 20
        guard (1...200).contains(limit) else { throw PickBatchError.invalidMaxOrders }
        let id = UUID()
        // Two lists created at once: SKIP LOCKED keeps them apart, but a claim whose snapshot
        // predates the other's commit can still pick an order the other just put on its list;
        // the unique index refuses it, and the next try (a new snapshot) skips that order.
        return try await database.transaction(logger: logger, retrying: { $0.constraintName == "pick_batch_orders_one_open_batch" }) {
            connection in
            let orders = try await PickBatchQueries.claimOrders(store: store, limit: limit, only: orderIDs, on: connection, logger: logger)
            guard !orders.isEmpty else { throw PickBatchError.noPendingOrders }
            try await PickBatchQueries.insertBatch(id: id, store: store, createdBy: staff.userID, orders: orders, on: connection, logger: logger)
            guard let batch = try await PickBatchQueries.batch(id: id, on: connection, logger: logger) else { throw APIError.internal }
            return batch
        }
    }

    /// The batch, if `staff` works at its store (others get 404, as if it did not exist).
    func batch(_ id: UUID, for identity: Identity, logger: Logger) async throws -> PickBatch {
        guard let batch = try await PickBatchQueries.batch(id: id, on: database.client, logger: logger),
            identity.worksAt(batch.storeID)
        else { throw PickBatchError.notFound }
        return batch
    }

    /// Records a pick. `productID` is the stop the picker stands at; `barcode` what they
    /// scanned. A scan that is not that stop's product is `wrong_product`.
    func pick(
        batch id: UUID, order: UUID, productID: UUID?, barcode: String?, quantity: Int, short: Bool,
        by identity: Identity, logger: Logger
    ) async throws -> PickOutcome {
        guard (0...CartQueries.maximumQuantity).contains(quantity) else { throw PickBatchError.invalidQuantity }
        let batch = try await batch(id, for: identity, logger: logger)
        guard batch.isOpen else { throw PickBatchError.closed }
        let walk = try batch.walk()
        let stop: PickStop
        switch (productID, barcode) {
        case (let product?, let scanned):
            guard let atStop = walk.stop(for: PickList.ProductID(product.uuidString.lowercased())) else {
                throw PickBatchError.rejected(.wrongProduct(expected: PickList.ProductID(product.uuidString.lowercased()), scanned: .productID(PickList.ProductID(product.uuidString.lowercased()))))
            }
            if let scanned, !atStop.identifies(.barcode(scanned)) {
                throw PickBatchError.rejected(.wrongProduct(expected: atStop.productID, scanned: .barcode(scanned)))
            }
            stop = atStop
        case (nil, let scanned?):
            guard let found = walk.stop(matching: .barcode(scanned)) else {
                throw PickBatchError.rejected(.wrongProduct(expected: PickList.ProductID(""), scanned: .barcode(scanned)))
            }
            stop = found
        case (nil, nil):
            throw PickBatchError.missingProduct
        }
        guard let productUUID = UUID(uuidString: stop.productID.rawValue) else { throw APIError.internal }
        let pickOrder = PickList.OrderID(order.uuidString.lowercased())
        let already = batch.line(order: order, product: productUUID)?.picked ?? 0
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
            throw PickBatchError.rejected(rejection)
        }
        let recorded = try await database.transaction(logger: logger) { connection in
            try await PickBatchQueries.recordPick(
                batch: id, store: batch.storeID, order: order, product: productUUID, quantity: quantity, short: short,
                by: identity.userID, on: connection, logger: logger)
        }
        switch recorded {
        case .recorded: break
        case .overPick:
            // Someone else's pick landed in between; report what stands now.
            throw PickBatchError.rejected(.overPick(ordered: progress.ordered, alreadyPicked: already, requested: quantity))
        case .notOnList(let status):
            throw PickBatchError.orderNotPickable(status: status.flatMap(OrderStatus.init(rawValue:)))
        }
        return PickOutcome(ordered: progress.ordered, picked: progress.picked, short: short)
    }

    /// Packages every pending order of the batch whose lines are all picked or closed short,
    /// in one transaction, through the order state machine: short lines release their unpicked
    /// reservation and reduce the order's total (`OrderQueries.releaseShortLines`). Orders not
    /// finished stay pending and return to the pool.
    func complete(batch id: UUID, by identity: Identity, logger: Logger) async throws -> Completion {
        _ = try await batch(id, for: identity, logger: logger)
        return try await database.transaction(logger: logger) { connection in
            let lockedRows = try await connection.run(
                "SELECT status FROM pick_batches WHERE id = \(id) FOR UPDATE", logger: logger)
            var status = ""
            for try await value in lockedRows.decode(String.self) { status = value }
            guard status == "open" else { throw PickBatchError.closed }
            guard let batch = try await PickBatchQueries.batch(id: id, on: connection, logger: logger) else {
                throw PickBatchError.notFound
            }
            // Every stock row this completion may touch, locked up front in product-id order:
            // the one lock order checkout, cancellation and collection use, so none deadlock.
            try await connection.run(
                """
                SELECT 1 FROM stock
                WHERE store_id = \(batch.storeID.rawValue)
                  AND product_id IN (SELECT l.product_id FROM order_lines l
                                     JOIN pick_batch_orders bo ON bo.order_id = l.order_id WHERE bo.batch_id = \(id))
                ORDER BY product_id
                FOR UPDATE
                """, logger: logger)
            var completion = Completion(packaged: [], leftPending: [])
            for order in batch.orders where OrderStatus(rawValue: order.status) == .pending {
                let lines = batch.lines.filter { $0.orderID == order.orderID }
                let done = lines.allSatisfy { $0.picked == $0.quantity || $0.short }
                guard done else {
                    completion.leftPending.append(order.orderID)
                    continue
                }
                let orderID = OrderID(order.orderID)
                let shorts = lines.filter { $0.picked < $0.quantity }
                let reason = shorts.isEmpty
                    ? "picked on pick list \(id.uuidString.lowercased())"
                    : "picked on pick list \(id.uuidString.lowercased()); short: "
                        + shorts.map { "\($0.name) \($0.picked)/\($0.quantity)" }.joined(separator: ", ")
                do {
                    try await OrderTransitions.apply(
                        order: orderID, store: batch.storeID, from: .pending, to: .packaged, reason: reason,
                        actor: identity.userID, on: connection, logger: logger)
                } catch OrderError.invalidTransition {
                    // Moved (e.g. cancelled) by someone else meanwhile: it stays as they left it.
                    completion.leftPending.append(order.orderID)
                    continue
                }
                completion.packaged.append(order.orderID)
            }
            try await connection.run(
                "UPDATE pick_batches SET status = 'completed', completed_at = now() WHERE id = \(id)", logger: logger)
            try await connection.run("UPDATE pick_batch_orders SET open = false WHERE batch_id = \(id)", logger: logger)
            return completion
        }
    }
}
