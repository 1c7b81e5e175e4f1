import Foundation
import Logging
import PostgresNIO

/// The SQL of the places booked in pickup slots (`pickup_slot_bookings`: one counter row per
/// store and slot start).
///
/// How many places a slot has left, and so whether one can be taken, is the database's rule
/// alone: `slot_places_left` (`sql/routines/slot_places_left.sql`). Taking a place
/// (`take_slot_place`) and the public slot list (``placesLeft(store:starts:capacity:on:logger:)``)
/// both ask it; Swift computes no places. `SlotPlacesAgreementTests` checks the list's answer is
/// how many places taking then gives.
///
/// Lock order: a transaction that changes stock and a slot locks the stock rows first (in
/// product-id order), then the order row, then slot rows in slot-start order. Checkout,
/// cancellation and moving an order all follow it, so none of them deadlock with another.
package enum SlotBookingQueries {
    /// Takes one place in the slot starting at `start`, while it has places left at `capacity`
    /// (`sql/routines/take_slot_place.sql`, which checkout's statement uses too, asking
    /// `slot_places_left`): racing bookings on any number of instances never overbook. False when full.
    package static func take(store: StoreID, start: Date, capacity: Int, on connection: PostgresConnection, logger: Logger) async throws -> Bool {
        let rows = try await connection.run(
            "SELECT take_slot_place(\(store.rawValue), \(start), \(Int32(clamping: capacity)))", logger: logger)
        for try await taken in rows.decode(Bool.self) { return taken }
        return false
    }

    /// Gives back the place the order holds, if it holds one (cancellation, moving to another slot).
    package static func free(orderOf order: OrderID, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.run(
            """
            UPDATE pickup_slot_bookings b SET booked = b.booked - 1
            FROM orders o
            WHERE o.id = \(order.rawValue) AND b.store_id = o.store_id AND b.slot_start = o.pickup_slot_start AND b.booked > 0
            """, logger: logger)
    }

    /// Locks the counter rows of the two slots that exist, in slot-start order (see the lock order above).
    package static func lock(store: StoreID, starts a: Date, _ b: Date, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.run(
            """
            SELECT 1 FROM pickup_slot_bookings
            WHERE store_id = \(store.rawValue) AND slot_start IN (\(a), \(b))
            ORDER BY slot_start
            FOR UPDATE
            """, logger: logger)
    }

    /// The places left in each slot of `starts` at a capacity of `capacity`, in the order of
    /// `starts`: the database's answer (`slot_places_left`, `sql/routines/slot_places_left.sql`),
    /// the very rule ``take(store:start:capacity:on:logger:)`` asks under the counter row's lock,
    /// so the list never shows a place that taking would refuse, nor hides one it would give.
    package static func placesLeft(store: StoreID, starts: [Date], capacity: Int, on client: some SQLRunner, logger: Logger) async throws
        -> [Int]
    {
        guard !starts.isEmpty else { return [] }
        let rows = try await client.run(
            """
            SELECT slot_places_left(\(Int32(clamping: capacity)), b.booked)
            FROM unnest(\(starts)::timestamptz[]) WITH ORDINALITY AS s(start, n)
            LEFT JOIN pickup_slot_bookings b ON b.store_id = \(store.rawValue) AND b.slot_start = s.start
            ORDER BY s.n
            """, logger: logger)
        var left: [Int] = []
        for try await places in rows.decode(Int32.self) { left.append(Int(places)) }
        guard left.count == starts.count else { throw OrderError.unexpectedlyMissing("the places left of \(starts.count) slots") }
        return left
    }
}
