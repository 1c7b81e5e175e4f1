import Foundation
import Logging
import QRReceipt

/// A store's calendar and the slots customers book in it: reading and replacing the calendar,
/// listing the bookable slots with their remaining places, and moving an order to another slot.
/// Taking a place at checkout is `Checkout`'s (same transaction as the stock); freeing it on
/// cancellation is `OrderTransitions.apply`'s (every cancellation path).
package struct PickupSlots: Sendable {
    package let database: Database
    /// Signs the moved order's new token with the keyring of the moment.
    package let signing: @Sendable () -> PickupTokenSigner

    /// A bookable slot and the room it has left (`room`: the database's count, `slot_places_left`
    /// and `slot_status`; never computed here).
    package struct Availability: Sendable {
        package var slot: PickupSlot
        package var capacity: Int
        package var room: SlotRoom
        /// Places left.
        package var remaining: Int { room.remaining }
        /// It can take no order: no place, or no room for a one-line order's work.
        package var isFull: Bool { room.status == .full }
    }

    /// The calendar of `store`, for its staff: another store's is not found (the middleware has
    /// refused them already; the scope in the query is the second lock).
    package func calendar(store: StoreID, by identity: Identity, logger: Logger) async throws -> StoreCalendar {
        let scope = try StoreScope(staff: identity)
        guard try await CalendarQueries.storeExists(store, scope: scope, on: database.client, logger: logger) else {
            throw OrderError.storeNotFound
        }
        return try await calendar(store: store, logger: logger)
    }

    /// A store's opening hours for the 7 days from `now`'s date on its clock, for anyone (the
    /// store finder): each day its hours (none: closed), and a closure's reason. Nil when the
    /// store keeps no calendar.
    package func openingWeek(store: StoreID, now: Date, logger: Logger) async throws -> (TimeZone, [OpeningDay])? {
        guard let calendar = try await CalendarQueries.calendar(store: store, on: database.client, logger: logger) else { return nil }
        let today = LocalDate(now, in: calendar.timeZone)
        let days = (0..<7).map { offset -> OpeningDay in
            let date = LocalDate(day: today.day + offset)
            let closure = calendar.closures.first { $0.date == date }
            let hours = closure == nil ? calendar.hours.filter { $0.weekday == date.weekday } : []
            return OpeningDay(date: date, hours: hours, closedBecause: closure.map { $0.reason.isEmpty ? "Closed" : $0.reason })
        }
        return (calendar.timeZone, days)
    }

    /// One day of a store's week as the store finder shows it.
    package struct OpeningDay: Sendable, Equatable {
        package var date: LocalDate
        /// Its opening hours, in the store's clock; empty: closed.
        package var hours: [StoreCalendar.Range]
        /// A closure's reason (a holiday), when it is closed for one.
        package var closedBecause: String?
    }

    /// The calendar of `store`, for anyone (the public slot list): 404 `calendar_not_found` when it has none.
    private func calendar(store: StoreID, logger: Logger) async throws -> StoreCalendar {
        guard try await CalendarQueries.storeExists(store, on: database.client, logger: logger) else { throw OrderError.storeNotFound }
        guard let calendar = try await CalendarQueries.calendar(store: store, on: database.client, logger: logger) else {
            throw SlotError.calendarNotFound
        }
        return calendar
    }

    /// Replaces the store's calendar. Places already booked stay booked, whatever the new hours
    /// or capacity: a lower capacity only stops new bookings until enough are freed.
    package func setCalendar(store: StoreID, to calendar: StoreCalendar, by manager: Identity, logger: Logger) async throws -> StoreCalendar {
        let scope = try StoreScope(staff: manager)
        return try await database.transaction(logger: logger) { connection in
            guard try await CalendarQueries.storeExists(store, scope: scope, on: connection, logger: logger) else {
                throw OrderError.storeNotFound
            }
            try await CalendarQueries.replace(store: store, with: calendar, on: connection, logger: logger)
            return calendar
        }
    }

    /// The bookable slots starting on `from` (the store's today when nil) and the `days` after,
    /// each with the room it has left as the database counts it (`SlotBookingQueries.rooms`:
    /// places and pick work, by `slot_refusal`, the rule taking room asks too).
    package func available(store: StoreID, from: LocalDate?, days: Int, now: Date, logger: Logger) async throws -> (StoreCalendar, [Availability]) {
        let calendar = try await self.calendar(store: store, logger: logger)
        let first = from ?? LocalDate(now, in: calendar.timeZone)
        let slots = calendar.bookableSlots(from: first, days: days, now: now)
        guard !slots.isEmpty else { return (calendar, []) }
        let rooms = try await SlotBookingQueries.rooms(
            store: store, slots: slots, capacity: calendar.capacity, on: database.client, logger: logger)
        return (calendar, zip(slots, rooms).map { Availability(slot: $0, capacity: calendar.capacity, room: $1) })
    }

    /// Moves the customer's own pending or packaged order to the slot starting at `start`: the
    /// old place is freed and the new one taken in one transaction (a full slot leaves the order
    /// where it was), and the pickup token is issued again to expire at the new slot's end plus
    /// the grace period (`StoreCalendar.collectionDeadline(for:)`, the deadline rule's Swift side;
    /// the old QR stops working, `superseded`). Moving to its own slot changes nothing.
    package func move(order id: OrderID, to start: Date, by customer: Identity, now: Date, logger: Logger) async throws -> Order {
        try await database.transaction(logger: logger) { connection in
            // The order row first: two moves of one order run one after the other. Another
            // customer's order is not found, as one that does not exist.
            guard let locked = try await OrderSlotQueries.lockOwnOrder(id, customer: customer.userID, on: connection, logger: logger) else {
                throw OrderError.orderNotFound
            }
            let store = locked.store
            guard locked.status == .pending || locked.status == .packaged else { throw SlotError.notMovable(locked.status) }
            guard let calendar = try await CalendarQueries.calendar(store: store, on: connection, logger: logger) else {
                throw SlotError.unavailable(.noCalendar)
            }
            let slot = try calendar.slot(startingAt: start, now: now)
            if locked.slotStart != slot.start {
                try await SlotBookingQueries.lock(
                    store: store, starts: locked.slotStart ?? slot.start, slot.start, on: connection, logger: logger)
                try await SlotBookingQueries.free(orderOf: id, on: connection, logger: logger)
                // The order books its work as its lines are now (issue 47), at the store's estimate.
                if let reason = try await SlotBookingQueries.take(
                    store: store, slot: slot, capacity: calendar.capacity, work: locked.work, on: connection, logger: logger)
                {
                    throw SlotError.full(start: slot.start, because: reason)
                }
                let token = try signing().sign(
                    PickupToken.Claims(
                        orderID: id.rawValue, storeNumber: locked.tokenNumber, expiresAt: calendar.collectionDeadline(for: slot)))
                try await OrderSlotQueries.move(id, to: slot, work: locked.work, token: token, on: connection, logger: logger)
            }
            guard let order = try await OrderQueries.order(id: id, on: connection, logger: logger) else { throw OrderError.orderNotFound }
            return order
        }
    }
}
