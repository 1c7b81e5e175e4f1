import Foundation
import Logging
import PostgresNIO
import QRReceipt

/// The scan at the desk: a customer shows their QR, staff of the token's store hand the order
/// over. The signature is checked first (a forged token names no order: the first statement
/// then only resolves the caller, whose refusal comes first), then `collect_order`, in one
/// statement, completes the order (who, when), marks the token used and turns the reserved
/// stock into sold stock. A second scan never completes twice: the order row is locked and
/// re-checked, so it answers `already_collected`. The token's store is compared with the
/// caller's `StoreScope`: another store's genuine token is `wrong_store` (403), and the scope
/// is the store `collect_order` checks again under its locks.
package struct Collections: Sendable {
    package let database: Database
    /// The verifier of the moment (the keyring is reloaded when the keys rotate).
    package let verifying: @Sendable () -> PickupTokenVerifier

    /// What the scan would do, without doing it: the order (name, lines, amount due) when it
    /// can be handed over now, else the same error a collection would give. One statement,
    /// which also resolves a presented token; returns the admitted staff member with the order.
    package func preview(token scanned: String, by caller: Caller, logger: Logger) async throws -> (Identity, Order) {
        let text = Self.normalized(scanned)
        let (staff, order) = try await read(text, by: caller, logger: logger)
        try Self.check(order, issuedWith: text, in: try StoreScope(staff: staff))
        return (staff, order!)
    }

    /// Whether `text` is a collector pass (format version 2) rather than a receipt, from its
    /// layout alone: the signature is checked by ``read(_:by:logger:)``.
    private static func isCollectorPass(_ text: String) -> Bool {
        (try? PickupToken(text: text))?.isCollectorPass == true
    }

    /// The caller and the order the token names, in one statement (before the signature's
    /// verdict is told: who is asking comes first, so an unknown caller gets 401, not a hint).
    ///
    /// A collector pass (issue 48) is read with one more statement, and the order comes back
    /// with it (`Order.collector`) for ``check(_:issuedWith:in:)`` and the desk's answer; a pass
    /// the database does not know (or of another order) is `invalid_token`, reason `unknown_pass`.
    package func read(_ text: String, by caller: Caller, logger: Logger) async throws -> (Identity, Order?) {
        let verified = Result { () throws(OrderError) in try verify(text) }
        var (staff, order) = try await CollectionQueries.callerAndOrder(
            try? verified.get(), caller: caller, on: database.client, logger: logger)
        _ = try verified.get()
        if Self.isCollectorPass(text), order != nil {
            let pass = try await CollectorPassQueries.scanned(text, on: database.client, logger: logger)
            guard let pass, pass.orderID == order?.id else { throw OrderError.invalidToken(reason: "unknown_pass") }
            order?.collector = pass
        }
        return (staff, order)
    }

    /// What a scanner typed, as the token it stands for: keyboard-wedge and serial scanners end
    /// with Enter (CR, LF or both) and a paste may carry spaces, so surrounding whitespace is
    /// not part of it. Every comparison uses this one form.
    package static func normalized(_ scanned: String) -> String {
        scanned.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `idChecked` says how staff confirmed the customer's age (nil: not confirmed); an order
    /// holding age-restricted goods is refused without it (`IDCheckError.required`).
    ///
    /// Two statements: the caller and the order as it stands (a refusal ends here, having
    /// written nothing), then `collect_order_viewed` (`sql/routines/collect_order_viewed.sql`), which decides and writes
    /// under its locks (`collect_order`) and returns the order as it then stands, for the
    /// answer or to explain a refusal. Returns the admitted staff member with the order.
    ///
    /// With `key` (the request's `Idempotency-Key`, issue 29), the same scan sent again by the
    /// same staff member, its first answer lost, is answered as the first was: collected.
    ///
    /// `bagsHandedOver` (issue 47) is how many of the order's bags the desk counted out: an order
    /// of more than one bag is refused with fewer, or without a count (`bags_missing`), having
    /// changed nothing. The count is checked here, not under `collect_order`'s locks: an order's
    /// bags are written when it is packed and never change after, and only a packed order is
    /// collected.
    package func collect(
        token scanned: String, by caller: Caller, idChecked: IDConfirmation.Method? = nil, bagsHandedOver: Int? = nil,
        key: String? = nil, logger: Logger
    ) async throws -> (Identity, Order) {
        let text = Self.normalized(scanned)
        let (staff, before) = try await read(text, by: caller, logger: logger)
        let scope = try StoreScope(staff: staff)
        // A completed order may be this very scan's, sent again: the keyed statement says.
        if key == nil || before?.status != .completed {
            try Self.check(before, issuedWith: text, in: scope, idChecked: idChecked)
            if let before { try Self.check(bagsOf: before, handedOver: bagsHandedOver) }
        }
        guard let order = before else { throw OrderError.wrongStore }
        for _ in 1...2 {
            var (collected, after) = try await database.retryingConflicts(logger: logger) {
                try await CollectionQueries.collect(
                    order.id, in: scope, by: staff.userID, token: text, idChecked: idChecked, key: key, on: database.client,
                    logger: logger)
            }
            after?.collector = order.collector
            if collected, let after {
                // The kerb's wait (issue 27): from the first "I'm here" to this hand-over.
                if let arrival = after.arrival, let handedOver = after.collectedAt {
                    ServiceMetrics.arrivalWait(store: after.storeID, seconds: handedOver.timeIntervalSince(arrival.at))
                }
                return (staff, after)
            }
            try Self.check(after, issuedWith: text, in: scope, idChecked: idChecked)
            // Refused, yet the order as read now could be handed over: it changed in between
            // (packed or paid a moment ago). Scan again.
        }
        throw DatabaseBusy()
    }

    /// The signature and expiry; returns the order the token names. Which store it is of is
    /// checked against the order itself (``check(_:issuedWith:in:)``).
    private func verify(_ text: String) throws(OrderError) -> OrderID {
        let token: PickupToken
        do {
            token = try verifying().verify(text)
        } catch .expired(let at) {
            throw OrderError.tokenExpired(at: at)
        } catch {
            throw OrderError.invalidToken(reason: error.code)
        }
        return OrderID(token.claims.orderID)
    }

    /// Whether the token names this order as it stands (a receipt re-issued at the desk
    /// replaces the old one) and the order can be handed over now; each refusal its own code.
    /// Another store's order is `wrong_store` (403), not "not found": the token is genuine, and
    /// the customer is at the wrong desk.
    /// A collector pass stands for the receipt while the customer has not revoked it (its
    /// expiry is in its signature); once the order is collected, by anyone, it says so.
    package static func check(_ order: Order?, issuedWith text: String, in scope: StoreScope) throws {
        guard let order, let current = order.pickup?.text else { throw OrderError.invalidToken(reason: "unknown_order") }
        guard scope.contains(order.storeID) else { throw OrderError.wrongStore }
        if let pass = order.collector, pass.text == text {
            if let revoked = pass.revokedAt, order.status != .completed {
                throw CollectorPassError.revoked(at: revoked, name: pass.name)
            }
        } else {
            guard current == text else { throw OrderError.invalidToken(reason: "superseded") }
        }
        try check(order)
    }

    /// As above, and an order holding age-restricted goods needs its age check recorded or
    /// confirmed with this scan.
    private static func check(_ order: Order?, issuedWith text: String, in scope: StoreScope, idChecked: IDConfirmation.Method?) throws {
        try check(order, issuedWith: text, in: scope)
        if let required = order?.idCheck, required.confirmation == nil, idChecked == nil {
            throw IDCheckError.required(minimumAge: required.minimumAge)
        }
    }

    /// Whether the desk counted out every bag: an order of one bag (or none recorded, packed
    /// before bags were) needs no count, as the one-step desk always worked.
    package static func check(bagsOf order: Order, handedOver given: Int?) throws(BagError) {
        let expected = order.bags.bags.count
        guard expected > 1 else { return }
        guard let given, given >= expected else { throw .bagsMissing(expected: expected, given: given) }
    }

    /// Whether this order can be handed over now, each refusal with its own code. Whether its
    /// status may be collected asks the transition rule (`OrderStatus.canTransition(to:)`, whose
    /// SQL side `collect_order` asks under its locks), so the explainer and the author agree.
    package static func check(_ order: Order) throws {
        switch order.status {
        case .cancelled: throw OrderError.orderCancelled
        case .completed:
            throw OrderError.alreadyCollected(
                at: order.collectedAt ?? order.completedAt ?? order.createdAt,
                by: order.history.last(where: { $0.to == .completed })?.actorName ?? "staff")
        case let status where !status.canTransition(to: .completed): throw OrderError.notReady(status)
        default: break
        }
        guard order.paymentStatus.isSettled else {
            throw OrderError.paymentRequired(amount: order.amountDue.amount, currency: order.amountDue.currency)
        }
    }
}
