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
    /// can be handed over now, else the same error a collection would give. One statement.
    func preview(token scanned: String, by staff: Identity, logger: Logger) async throws -> Order {
        let text = Self.normalized(scanned)
        let orderID = try verify(text)
        let order = try await OrderQueries.order(id: orderID, on: database.client, logger: logger)
        try Self.check(order, issuedWith: text, at: staff)
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
    ///
    /// Two statements: `collect_order` (migration 015) decides and writes under its locks, then
    /// the order is read back, for the answer or to explain a refusal.
    func collect(
        token scanned: String, by staff: Identity, idChecked: IDConfirmation.Method? = nil, logger: Logger
    ) async throws -> Order {
        let text = Self.normalized(scanned)
        let orderID = try verify(text)
        guard let store = staff.storeID else { throw OrderError.wrongStore }
        for _ in 1...2 {
            let rows = try await database.retryingConflicts(logger: logger) {
                try await database.client.run(
                    """
                    SELECT collect_order(\(orderID.rawValue), \(store.rawValue), \(staff.userID.rawValue), \(text),
                                         \(idChecked?.rawValue))
                    """, logger: logger)
            }
            var collected = false
            for try await done in rows.decode(Bool.self) { collected = done }
            let order = try await OrderQueries.order(id: orderID, on: database.client, logger: logger)
            if collected, let order { return order }
            try Self.check(order, issuedWith: text, at: staff)
            if let required = order?.idCheck, required.confirmation == nil, idChecked == nil {
                throw IDCheckError.required(minimumAge: required.minimumAge)
            }
            // Refused, yet the order as read now could be handed over: it changed in between
            // (packed or paid a moment ago). Scan again.
        }
        throw DatabaseBusy()
    }

    /// The signature and expiry; returns the order the token names. Which store it is of is
    /// checked against the order itself (``check(_:issuedWith:at:)``).
    private func verify(_ text: String) throws -> OrderID {
        let token: PickupToken
        do {
            token = try verifier.verify(text)
        } catch .expired(let at) {
            throw OrderError.tokenExpired(at: at)
        } catch {
            throw OrderError.invalidToken(reason: error.code)
        }
        return OrderID(token.claims.orderID)
    }

    /// Whether the token names this order as it stands (a receipt re-issued at the desk
    /// replaces the old one) and the order can be handed over now; each refusal its own code.
    static func check(_ order: Order?, issuedWith text: String, at staff: Identity) throws {
        guard let order, let current = order.pickup?.text else { throw OrderError.invalidToken(reason: "unknown_order") }
        guard order.storeID == staff.storeID else { throw OrderError.wrongStore }
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
