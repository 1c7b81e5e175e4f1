import Foundation
import Logging
import PostgresNIO

/// The SQL of the room booked in pickup slots (`pickup_slot_bookings`: one counter row per store
/// and slot start, holding the places taken and the pick work booked, in seconds).
///
/// Whether a slot can take an order is the database's rule alone: `slot_refusal`
/// (`sql/routines/slot_refusal.sql`: a place left, per `slot_places_left`, and the order's work
/// fits the pickers the rota plans, per `slot_work_capacity`). Taking room (`take_slot_room`) and
/// the public slot list (``rooms(store:slots:capacity:on:logger:)``, through `slot_status`) both
/// ask it; Swift computes no places and no work. `SlotPlacesAgreementTests` and
/// `SlotWorkTests` check the list's answer against what taking then gives.
///
/// Lock order: a transaction that changes stock and a slot locks the stock rows first (in
/// product-id order), then the order row, then slot rows in slot-start order. Checkout,
/// cancellation and moving an order all follow it, so none of them deadlock with another.
package enum SlotBookingQueries {
    /// Takes a place and `work` seconds of pick work in `slot`, while it has room at `capacity`
    /// places (`sql/routines/take_slot_room.sql`, which checkout's statement uses too): racing
    /// bookings on any number of instances never overbook either. Nil when taken, else why not.
    package static func take(
        store: StoreID, slot: PickupSlot, capacity: Int, work: Int, on connection: PostgresConnection, logger: Logger
    ) async throws -> SlotFullReason? {
        let rows = try await connection.run(
            """
            SELECT take_slot_room(\(store.rawValue), \(slot.start), \(slot.end), \(Int32(clamping: capacity)),
                                  \(Int32(clamping: work)))
            """, logger: logger)
        for try await refusal in rows.decode(String?.self) {
            return try SlotFullReason.stored(refusal, column: "take_slot_room")
        }
        throw OrderError.unexpectedlyMissing("take_slot_room's answer")
    }

    /// Gives back the place and the work the order holds, if it holds any (cancellation, expiry,
    /// moving to another slot).
    package static func free(orderOf order: OrderID, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.run(
            """
            UPDATE pickup_slot_bookings b SET booked = b.booked - 1, work_seconds = b.work_seconds - coalesce(o.pick_work_seconds, 0)
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

    /// The room each of `slots` has left at a capacity of `capacity` places, in the order of
    /// `slots`: the database's answer (`slot_places_left` and `slot_status`, which asks
    /// `slot_refusal`, the very rule ``take(store:slot:capacity:work:on:logger:)`` asks under the
    /// counter row's lock), so the list never shows room that taking would refuse, nor hides room
    /// it would give.
    package static func rooms(store: StoreID, slots: [PickupSlot], capacity: Int, on client: some SQLRunner, logger: Logger) async throws
        -> [SlotRoom]
    {
        guard !slots.isEmpty else { return [] }
        let rows = try await client.run(
            """
            SELECT slot_places_left(\(Int32(clamping: capacity)), b.booked) AS remaining, st.status, st.full_because
            FROM unnest(\(slots.map(\.start))::timestamptz[], \(slots.map(\.end))::timestamptz[]) WITH ORDINALITY AS s(start, finish, n)
            LEFT JOIN pickup_slot_bookings b ON b.store_id = \(store.rawValue) AND b.slot_start = s.start
            CROSS JOIN LATERAL slot_status(\(Int32(clamping: capacity)), b.booked, slot_work_capacity(\(store.rawValue), s.start, s.finish),
                                           b.work_seconds, order_pick_work(\(store.rawValue), 1, 1)) st
            ORDER BY s.n
            """, logger: logger)
        var rooms: [SlotRoom] = []
        for try await row in rows {
            let r = row.makeRandomAccess()
            rooms.append(
                SlotRoom(
                    remaining: Int(try r["remaining"].decode(Int32.self)), status: try r["status"].stored(SlotStatus.self),
                    fullBecause: try r["full_because"].stored(SlotFullReason?.self)))
        }
        guard rooms.count == slots.count else { throw OrderError.unexpectedlyMissing("the room left in \(slots.count) slots") }
        return rooms
    }
}
