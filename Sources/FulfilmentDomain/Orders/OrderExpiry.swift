import Foundation
import Logging
import PostgresNIO

/// The end of an uncollected order's life: once its pickup token has expired (the collection
/// window has passed — the token's expiry is the one deadline the desk also enforces), an
/// order that is still pending, packaged or delivering is cancelled with reason `uncollected`
/// by the system (no user): through `OrderTransitions.apply`, the same path as any other
/// cancellation, so its reserved (or packed) stock goes back, it leaves any open pick list,
/// and a paid order becomes `refund_due`.
///
/// The sweep states neither rule it applies. The deadline is the token's `expires_at`, which
/// its issuer set from the deadline rule (`StoreCalendar.collectionDeadline(for:)` and its SQL
/// side `collection_deadline`); which orders may be cancelled is the transition rule's
/// (`order_transition_allowed(status, 'cancelled')` in `OrderExpiryQueries`, the SQL side of
/// `OrderStatus.allowedTargets`).
///
/// Every instance sweeps, and nothing is held in memory: each order is expired in a
/// transaction of its own that first locks its stock rows in product-id order (the lock order
/// of every stock-changing transaction, so a sweep never deadlocks with a checkout, a
/// cancellation or a collection), then claims the order with `FOR UPDATE SKIP LOCKED` **only
/// if it is still open and still expired**. A second sweep reaching the same order waits on
/// those stock rows and then finds it cancelled, or skips it while another transaction holds
/// it; either way it is done once. Sweeping again changes nothing: idempotent.
package struct OrderExpiry: Sendable {
    package let database: Database

    package init(database: Database) {
        self.database = database
    }
    /// Orders read per round; a sweep runs rounds until one comes back short.
    package var batchSize = 100

    /// An open order whose token expired, as first read (not locked).
    package struct Candidate: Sendable {
        package var id: OrderID
        package var store: StoreID
    }

    /// The history entry's reason.
    package static let reason = "uncollected"

    /// Queues the collection reminder of every ready order whose expiry is within its store's
    /// `reminder_before` (issue 44): one per order however many instances sweep, since the
    /// message's moment is the order (`queue_collection_reminders`). Returns how many now.
    @discardableResult
    package func remind(logger: Logger) async throws -> Int {
        try await database.transaction(logger: logger) { connection in
            let rows = try await connection.run("SELECT queue_collection_reminders()", logger: logger)
            for try await count in rows.decode(Int32.self) { return Int(count) }
            return 0
        }
    }

    /// Cancels every open order whose token expired at or before `now` (the caller's clock, so
    /// a test controls it); returns the orders this sweep cancelled.
    package func sweep(now: Date, logger: Logger) async throws -> [OrderID] {
        var cancelled: [OrderID] = []
        var seen = Set<OrderID>()
        while true {
            let candidates = try await self.candidates(expiredBy: now, logger: logger).filter { !seen.contains($0.id) }
            for candidate in candidates {
                seen.insert(candidate.id)
                if try await expire(candidate, now: now, logger: logger) { cancelled.append(candidate.id) }
            }
            if candidates.count < batchSize { break }
        }
        if !cancelled.isEmpty { logger.info("uncollected orders cancelled", metadata: ["count": "\(cancelled.count)"]) }
        return cancelled
    }

    /// Open orders whose unused token expired by `now`, oldest expiry first; read without locks.
    package func candidates(expiredBy now: Date, logger: Logger) async throws -> [Candidate] {
        try await OrderExpiryQueries.candidates(expiredBy: now, limit: batchSize, on: database.client, logger: logger)
    }

    /// Cancels one order if it is still open and expired when claimed; false when another sweep
    /// (or a person) got there first, or it is no longer expired (a re-issued receipt).
    package func expire(_ candidate: Candidate, now: Date, logger: Logger) async throws -> Bool {
        try await database.transaction(logger: logger) { connection in
            // The order's coupon row, then its stock rows: checkout's lock order (cart, coupon,
            // stock), since the cancellation gives the redemption back.
            try await OrderQueries.lockCoupon(of: candidate.id, on: connection, logger: logger)
            try await OrderQueries.lockStock(of: candidate.id, store: candidate.store, on: connection, logger: logger)
            guard let status = try await OrderExpiryQueries.claim(candidate, now: now, on: connection, logger: logger) else {
                return false
            }
            try await OrderTransitions.apply(
                order: candidate.id, store: candidate.store, from: status, to: .cancelled, reason: Self.reason, actor: nil,
                on: connection, logger: logger)
            return true
        }
    }
}
