import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Issue 43: how many places a pickup slot has left is one rule, `slot_places_left`
/// (`sql/routines/slot_places_left.sql`). Taking a place (`take_slot_room`, under the counter
/// row's lock) and the public slot list (`remaining`, which the shop shows as "full" or "1 place
/// left") both ask it. This test holds them to each other: for a range of capacities and of
/// places taken (none, some, all, and more than a lowered capacity allows), the list's answer is
/// exactly how many places taking then gives, and what the rule says it should be.
@Suite("Slot places: the slot list and take_slot_room agree")
struct SlotPlacesAgreementTests {
    /// Friday morning in London; the slots tested are on the following days, inside the horizon.
    static let friday = "2027-03-26T10:00:00Z"

    @Test("for capacities 1 to 5 and every count of places taken up to capacity + 2, the list's remaining is what taking gives")
    func listAndTakingAgree() async throws {
        try await withApp(clock: TestClock(Self.friday)) { app in
            let store = try await app.createStore()
            let manager = try await app.signIn(role: .manager, store: store)
            let cases: [(capacity: Int, date: String)] = [(1, "2027-03-27"), (2, "2027-03-28"), (3, "2027-03-29"), (5, "2027-03-30")]
            for (capacity, date) in cases {
                #expect(try await app.setCalendar(store: store, by: manager, TestApp.everyDay(capacity: capacity)).status == .ok)
                let starts = try await app.pickupSlots(store: store, from: date, days: 1).json["items"].array.compactMap { $0["start"].string }
                #expect(starts.count == 16, "09:00–17:00 in half hours on \(date)")
                // Places taken per slot: 0 ... capacity + 2 in turn (more than the capacity: it was
                // lowered after they were booked). A slot with none taken has no counter row on
                // even turns and a row of 0 on odd ones.
                let booked = starts.indices.map { $0 % (capacity + 3) }
                let rows = starts.indices.filter { booked[$0] > 0 || ($0 / (capacity + 3)) % 2 == 1 }
                try await sql(
                    """
                    INSERT INTO pickup_slot_bookings (store_id, slot_start, booked)
                    SELECT $1, x.s, x.b FROM unnest($2::timestamptz[], $3::int[]) AS x(s, b)
                    """,
                    [
                        store, "{" + rows.map { starts[$0] }.joined(separator: ",") + "}",
                        "{" + rows.map { String(booked[$0]) }.joined(separator: ",") + "}",
                    ],
                    on: app.database)

                let listed = try await app.pickupSlots(store: store, from: date, days: 1).json["items"].array
                #expect(listed.compactMap { $0["start"].string } == starts)
                #expect(listed.allSatisfy { $0["capacity"].int == capacity })
                let remaining = listed.map { $0["remaining"].int ?? -1 }
                #expect(remaining == booked.map { max(0, capacity - $0) }, "capacity \(capacity)")

                // Take places under the lock until refused, slot by slot, on one connection.
                let taken = try await Migrator.offloaded { [database = app.database] in
                    let connection = try LibPQConnection(database)
                    return try starts.map { start in
                        var count = 0
                        while count <= capacity + 3,
                            try connection.execute(
                                "SELECT (take_slot_room($1, $2::timestamptz, $2::timestamptz + interval '30 minutes', $3, 80) IS NULL)::text",
                                parameters: [store, start, String(capacity)])
                                == [["true"]]
                        {
                            count += 1
                        }
                        return count
                    }
                }
                #expect(taken == remaining, "capacity \(capacity): places given by take_slot_room vs the list's remaining")
                let after = try await app.pickupSlots(store: store, from: date, days: 1).json["items"].array
                #expect(after.allSatisfy { $0["remaining"].int == 0 }, "capacity \(capacity): every slot full")
                #expect(after.allSatisfy { $0["status"].string == "full" && $0["fullBecause"].string == "places" }, "capacity \(capacity)")
            }
        }
    }
}
