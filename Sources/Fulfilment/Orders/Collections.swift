import Foundation
import Logging
import PostgresNIO
import QRReceipt

/// The scan at the desk: a customer shows their QR, staff of the token's store hand the order
/// over. The signature is checked first (no database work for a forged token), then, in one
/// transaction, the order is completed (who, when), the token marked used and the reserved
/// stock turned into sold stock. A second scan never completes twice: the order row is locked
/// and re-checked, so it answers `already_collected`.
struct Collections: Sendable {
    let database: Database
    let verifier: PickupTokenVerifier

    /// What the scan would do, without doing it: the order (name, lines, amount due) when it
    /// can be handed over now, else the same error a collection would give.
    func preview(token scanned: String, by staff: Identity, logger: Logger) async throws -> Order {
        let text = Self.normalized(scanned)
        let orderID = try await verify(text, by: staff, logger: logger)
        let order = try await OrderQueries.order(id: orderID, on: database.client, logger: logger)
        try Self.check(order, issuedWith: text)
        return order!
    }

    /// What a scanner typed, as the token it stands for: keyboard-wedge and serial scanners end
    /// with Enter (CR, LF or both) and a paste may carry spaces, so surrounding whitespace is
    /// not part of it. Every comparison uses this one form.
    static func normalized(_ scanned: String) -> String {
        scanned.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `idChecked` says how staff confirmed the customer's age (nil: not confirmed); an order
    /// holding age-restricted goods is refused without it (`IDCheckError.required`).
    func collect(
        token scanned: String, by staff: Identity, idChecked: IDConfirmation.Method? = nil, logger: Logger
    ) async throws -> Order {
        let text = Self.normalized(scanned)
        let orderID = try await verify(text, by: staff, logger: logger)
        return try await database.transaction(logger: logger) { connection in
            let store = try await Self.storeOf(orderID, on: connection, logger: logger)
            // Stock rows before the order row: the lock order every stock-changing transaction uses.
            try await OrderQueries.lockStock(of: orderID, store: store, on: connection, logger: logger)
            try await connection.run("SELECT 1 FROM orders WHERE id = \(orderID.rawValue) FOR UPDATE", logger: logger)
            let found = try await OrderQueries.order(id: orderID, on: connection, logger: logger)
            try Self.check(found, issuedWith: text)
            let order = found!
            if let required = order.idCheck, required.confirmation == nil {
                guard let method = idChecked else { throw IDCheckError.required(minimumAge: required.minimumAge) }
                try await IDCheckQueries.record(
                    order: orderID, store: store, minimumAge: required.minimumAge, method: method, by: staff.userID,
                    on: connection, logger: logger)
            }
            try await connection.run(
                """
                WITH o AS (
                    UPDATE orders SET status = 'completed', completed_at = now(), collected_at = now(),
                                      collected_by = \(staff.userID.rawValue)
                    WHERE id = \(orderID.rawValue) AND status = \(order.status.rawValue)
                    RETURNING id
                ), t AS (
                    UPDATE pickup_tokens SET used_at = now(), used_by = \(staff.userID.rawValue)
                    WHERE order_id = \(orderID.rawValue) AND used_at IS NULL
                ), s AS (
                    UPDATE stock SET on_hand = stock.on_hand - held_quantity(l, true),
                                     reserved = stock.reserved - held_quantity(l, true),
                                     updated_at = now()
                    FROM order_lines l
                    WHERE l.order_id = \(orderID.rawValue) AND stock.store_id = \(store.rawValue)
                      AND stock.product_id = l.product_id
                )
                INSERT INTO order_events (store_id, order_id, from_status, to_status, actor_id, reason)
                SELECT \(store.rawValue), id, \(order.status.rawValue), 'completed', \(staff.userID.rawValue), 'collected'
                FROM o
                """, logger: logger)
            return try await OrderQueries.order(id: orderID, on: connection, logger: logger)!
        }
    }

    /// The signature, expiry and store checks; returns the order the token names.
    private func verify(_ text: String, by staff: Identity, logger: Logger) async throws -> OrderID {
        let token: PickupToken
        do {
            token = try verifier.verify(text)
        } catch .expired(let at) {
            throw OrderError.tokenExpired(at: at)
        } catch {
            throw OrderError.invalidToken(reason: error.code)
        }
        let rows = try await database.client.run(
            "SELECT token_number FROM stores WHERE id = \(staff.storeID?.rawValue)", logger: logger)
        var number: Int32?
        for try await row in rows.decode(Int32.self) { number = row }
        guard let number, UInt32(number) == token.claims.storeNumber else { throw OrderError.wrongStore }
        return OrderID(token.claims.orderID)
    }

    private static func storeOf(_ id: OrderID, on connection: PostgresConnection, logger: Logger) async throws -> StoreID {
        let rows = try await connection.run("SELECT store_id FROM orders WHERE id = \(id.rawValue)", logger: logger)
        for try await store in rows.decode(UUID.self) { return StoreID(store) }
        throw OrderError.invalidToken(reason: "unknown_order")
    }

    /// Whether the token names this order as it stands (a receipt re-issued at the desk
    /// replaces the old one) and the order can be handed over now; each refusal its own code.
    static func check(_ order: Order?, issuedWith text: String) throws {
        guard let order, let current = order.pickup?.text else { throw OrderError.invalidToken(reason: "unknown_order") }
        guard current == text else { throw OrderError.invalidToken(reason: "superseded") }
        try check(order)
    }

    /// Whether this order can be handed over now, each refusal with its own code.
    static func check(_ order: Order) throws {
        switch order.status {
        case .cancelled: throw OrderError.orderCancelled
        case .completed:
            throw OrderError.alreadyCollected(
                at: order.collectedAt ?? order.completedAt ?? order.createdAt,
                by: order.history.last(where: { $0.to == .completed })?.actorName ?? "staff")
        case .pending: throw OrderError.notReady(.pending)
        case .packaged, .delivering: break
        }
        guard order.paymentStatus.isSettled else {
            throw OrderError.paymentRequired(amount: order.amountDue.amount, currency: order.amountDue.currency)
        }
    }
}
