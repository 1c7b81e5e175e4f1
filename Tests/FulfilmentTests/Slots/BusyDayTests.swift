import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Issue 47's measure: a busy Saturday replayed into a store with a rota. Customers with baskets
/// from one item to a big weekly shop check out in waves, twelve at a moment on their own
/// connections, into the morning's slots, each choosing among the slots the list still offers.
/// Afterwards no slot holds more work than its pickers can do (but a slot's first order, taken
/// whole), every slot's counter is exactly what its orders hold, and the list says full where
/// checkout refuses.
@Suite("A busy day: no slot booked beyond its pickers' work")
struct BusyDayTests {
    /// Friday 10:00 in London; the Saturday is the next day.
    static let friday = "2027-03-26T10:00:00Z"

    /// The same day every run: a small linear congruential generator.
    struct Replay: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state
        }
    }

    @Test(
        "144 orders of 1 to 12 lines into a Saturday morning: every slot within its pickers' work, counters equal to the orders",
        .timeLimit(.minutes(6)))
    func busySaturday() async throws {
        try await withApp(clock: TestClock(Self.friday)) { app in
            let (store, manager) = try await app.storeWithCalendar(TestApp.everyDay("09:00", "12:00", capacity: 8))
            // One picker from 09:00, two from 10:00, three from 11:00.
            let rota: JSONValue = [
                "defaultPickers": 1,
                "hours": [["weekday": "saturday", "hour": 10, "pickers": 2], ["weekday": "saturday", "hour": 11, "pickers": 3]],
            ]
            #expect(try await app.setRota(store: store, by: manager, rota).status == .ok)
            var products: [String] = []
            for _ in 0..<12 { products.append(try await app.addProduct(store: store, onHand: 100_000)) }
            var random = Replay(state: 47)
            var customers: [Session] = []
            for _ in 0..<144 {
                let customer = try await app.registerCustomer()
                let lines = Int.random(in: 1...12, using: &random)
                try await app.fillCart(
                    customer, store: store, products.shuffled(using: &random).prefix(lines).map { ($0, Int.random(in: 1...6, using: &random)) })
                customers.append(customer)
            }
            var created = 0
            var refused: [String: Int] = [:]
            for wave in stride(from: 0, to: customers.count, by: 12) {
                // Each wave chooses among the slots the list offers now, the earliest most often.
                let open = try await app.pickupSlots(store: store, from: "2027-03-27", days: 1).json["items"].array
                    .filter { $0["status"].string != "full" }.compactMap { $0["start"].string }
                guard !open.isEmpty else { break }
                let choices = (0..<12).map { _ in open[min(Int.random(in: 0..<(open.count * 2), using: &random) / 2, open.count - 1)] }
                let group = Array(customers[wave..<wave + 12])
                let replies = try await app.race(12) { index, racer in try await racer.checkout(group[index], slot: choices[index]) }
                created += replies.filter { $0.status == .created }.count
                for reply in replies where reply.status != .created {
                    #expect(reply.errorCode == "slot_full", "\(reply.status) \(reply.text)")
                    refused[reply.json["error"]["details"]["reason"].string ?? "?", default: 0] += 1
                }
            }
            #expect(created >= 30, "the morning took a good share of the day's orders")
            #expect(refused["work", default: 0] > 0, "the pickers, not the places, were the limit somewhere")

            // Every slot: within its pickers' work unless it holds one order; its counters what its orders hold.
            let slots = try await sql(
                """
                SELECT b.slot_start, b.booked, b.work_seconds, slot_work_capacity(b.store_id, b.slot_start, b.slot_start + interval '30 minutes'),
                       (SELECT count(*) FROM orders o WHERE o.store_id = b.store_id AND o.pickup_slot_start = b.slot_start),
                       (SELECT coalesce(sum(o.pick_work_seconds), 0) FROM orders o WHERE o.store_id = b.store_id AND o.pickup_slot_start = b.slot_start)
                FROM pickup_slot_bookings b WHERE b.store_id = $1 ORDER BY b.slot_start
                """, [store], on: app.database)
            #expect(slots.count >= 4)
            for slot in slots {
                let (booked, work, capacity) = (Int(slot[1]!)!, Int(slot[2]!)!, Int(slot[3]!)!)
                #expect(work <= capacity || booked == 1, "\(slot[0]!): \(work) s booked of \(capacity)")
                #expect(booked <= 8, "\(slot[0]!): places")
                #expect(slot[4] == slot[1] && slot[5] == slot[2], "\(slot[0]!): the counter row is what its orders hold")
            }
            // Where the list says full, checkout refuses even the smallest order.
            let (small, _) = try await app.shopper(at: store)
            for slot in try await app.pickupSlots(store: store, from: "2027-03-27", days: 1).json["items"].array
            where slot["status"].string == "full" {
                let reply = try await app.checkout(small, slot: slot["start"].string)
                #expect(reply.json["error"]["details"]["reason"].string == slot["fullBecause"].string)
            }
        }
    }
}
