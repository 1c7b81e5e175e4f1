import Foundation
import HTTPTypes
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// A grocer's pickup windows: the manager sets the calendar, customers choose a slot at
/// checkout, the store never takes more orders in a slot than it can prepare.
@Suite("Pickup slots")
struct PickupSlotTests {
    /// A Friday morning in London, two days before the clocks go forward.
    static let friday = "2027-03-26T10:00:00Z"

    @Test("a manager sets the store's calendar and its staff read it; customers, staff and other stores' managers may not set it")
    func calendarByManagers() async throws {
        try await withApp(clock: TestClock(Self.friday)) { app in
            let store = try await app.createStore()
            let manager = try await app.signIn(role: .manager, store: store)
            let staff = try await app.signIn(role: .staff, store: store)
            let customer = try await app.registerCustomer()
            let elsewhere = try await app.signIn(role: .manager, store: try await app.createStore())
            #expect(try await app.request(.get, "/v1/stores/\(store)/calendar", token: staff.token).errorCode == "calendar_not_found")

            var calendar = TestApp.everyDay(capacity: 3, closures: ["2027-12-25"])
            if case .object(var fields) = calendar {
                fields["openingHours"] = .array(fields["openingHours"]!.array + [["weekday": "friday", "opens": "22:00", "closes": "02:00"]])
                calendar = .object(fields)
            }
            let set = try await app.setCalendar(store: store, by: manager, calendar)
            #expect(set.status == .ok)
            #expect(set.json["timeZone"].string == "Europe/London")
            #expect(set.json["slotMinutes"].int == 30)
            #expect(set.json["capacity"].int == 3)
            #expect(set.json["openingHours"].array.count == 8)
            #expect(set.json["closures"][0]["date"].string == "2027-12-25")
            let read = try await app.request(.get, "/v1/stores/\(store)/calendar", token: staff.token)
            #expect(read.status == .ok)
            #expect(read.json == set.json)

            for outsider in [staff, customer, elsewhere] {
                #expect(try await app.setCalendar(store: store, by: outsider, calendar).status == .forbidden)
            }
            #expect(try await app.request(.get, "/v1/stores/\(store)/calendar", token: customer.token).status == .forbidden)
            #expect(try await app.request(.get, "/v1/stores/\(store)/calendar").status == .unauthorized)
        }
    }

    @Test("a wrong calendar is 422 invalid_calendar naming the field, and changes nothing")
    func invalidCalendar() async throws {
        try await withApp(clock: TestClock(Self.friday)) { app in
            let (store, manager) = try await app.storeWithCalendar(TestApp.everyDay(capacity: 2))
            let overlapping: JSONValue = [
                "timeZone": "Europe/London", "capacity": 2,
                "openingHours": [
                    ["weekday": "friday", "opens": "22:00", "closes": "02:00"], ["weekday": "saturday", "opens": "01:00", "closes": "03:00"],
                ],
            ]
            let cases: [(JSONValue, String)] = [
                (TestApp.everyDay(zone: "Mars/Olympus"), "timeZone"),
                (TestApp.everyDay("09:00", "25:00"), "openingHours[0].closes"),
                (TestApp.everyDay("09:00", "09:15"), "openingHours[0]"),
                (overlapping, "openingHours[1]"),
                (TestApp.everyDay(capacity: 0), "capacity"),
                (TestApp.everyDay(lead: -1), "leadMinutes"),
                (TestApp.everyDay(horizon: 61), "horizonDays"),
                (TestApp.everyDay(grace: 20_161), "graceMinutes"),
                (TestApp.everyDay(closures: ["2027-02-29"]), "closures[0].date"),
            ]
            for (calendar, field) in cases {
                let reply = try await app.setCalendar(store: store, by: manager, calendar)
                #expect(reply.status == .unprocessableContent, "\(field)")
                #expect(reply.errorCode == "invalid_calendar", "\(field)")
                #expect(reply.json["error"]["details"]["field"].string == field)
            }
            let kept = try await app.request(.get, "/v1/stores/\(store)/calendar", token: manager.token)
            #expect(kept.json["capacity"].int == 2)
            #expect(kept.json["openingHours"].array.count == 7)
        }
    }

    @Test("the public slot list: UTC and local times, remaining places; lead time, closures and closed hours absent")
    func slotList() async throws {
        try await withApp(clock: TestClock(Self.friday)) { app in
            let (store, _) = try await app.storeWithCalendar(TestApp.everyDay("09:00", "17:00", capacity: 2, closures: ["2027-03-27"]))
            let today = try await app.pickupSlots(store: store, days: 1)
            #expect(today.status == .ok)
            #expect(today.json["timeZone"].string == "Europe/London")
            #expect(today.json.has("nextCursor") && today.json["nextCursor"] == .null)
            let slots = today.json["items"].array
            // 10:00 now plus two hours' lead: 12:00 is the first; the last starts at 16:30.
            #expect(slots.count == 10)
            #expect(slots.first?["start"].string == "2027-03-26T12:00:00Z")
            #expect(slots.first?["end"].string == "2027-03-26T12:30:00Z")
            #expect(slots.first?["localStart"].string == "2027-03-26T12:00:00+00:00")
            #expect(slots.last?["localEnd"].string == "2027-03-26T17:00:00+00:00")
            #expect(slots.allSatisfy { $0["capacity"].int == 2 && $0["remaining"].int == 2 })
            // Saturday is closed; Sunday the clocks have gone forward.
            let weekend = try await app.pickupSlots(store: store, from: "2027-03-27", days: 2).json["items"].array
            #expect(weekend.count == 16)
            #expect(weekend.first?["start"].string == "2027-03-28T08:00:00Z")
            #expect(weekend.first?["localStart"].string == "2027-03-28T09:00:00+01:00")

            #expect(try await app.pickupSlots(store: store, days: 0).status == .unprocessableContent)
            #expect(try await app.pickupSlots(store: store, days: 32).status == .unprocessableContent)
            #expect(try await app.pickupSlots(store: store, from: "2027-02-30").status == .unprocessableContent)
            let plain = try await app.createStore()
            #expect(try await app.pickupSlots(store: plain).errorCode == "calendar_not_found")
            #expect(try await app.pickupSlots(store: UUID().uuidString).status == .notFound)
        }
    }

    @Test("the slot list over the nights the clocks change in London: last Sunday of March and of October, and past midnight")
    func daylightSaving() async throws {
        let clock = TestClock("2027-03-27T10:00:00Z")
        try await withApp(clock: clock) { app in
            var night = TestApp.everyDay("00:00", "04:00", lead: 0)
            if case .object(var fields) = night {
                fields["openingHours"] = .array(
                    fields["openingHours"]!.array.filter { $0["weekday"] == "sunday" }
                        + [["weekday": "saturday", "opens": "22:00", "closes": "23:00"]])
                night = .object(fields)
            }
            let (store, _) = try await app.storeWithCalendar(night)
            let march = try await app.pickupSlots(store: store, from: "2027-03-28", days: 1).json["items"].array
            #expect(
                march.map { $0["localStart"].string ?? "" } == [
                    "2027-03-28T00:00:00+00:00", "2027-03-28T00:30:00+00:00", "2027-03-28T02:00:00+01:00",
                    "2027-03-28T02:30:00+01:00", "2027-03-28T03:00:00+01:00", "2027-03-28T03:30:00+01:00",
                ])
            #expect(march.map { $0["start"].string ?? "" }.prefix(3) == ["2027-03-28T00:00:00Z", "2027-03-28T00:30:00Z", "2027-03-28T01:00:00Z"])
            // Saturday 22:00–23:00 then Sunday: slots touching midnight are listed on their own dates.
            let saturday = try await app.pickupSlots(store: store, from: "2027-03-27", days: 1).json["items"].array
            #expect(saturday.map { $0["localEnd"].string ?? "" } == ["2027-03-27T22:30:00+00:00", "2027-03-27T23:00:00+00:00"])

            clock.set("2027-10-30T10:00:00Z")
            let october = try await app.pickupSlots(store: store, from: "2027-10-31", days: 1).json["items"].array
            #expect(october.count == 10)
            #expect(
                october.map { $0["localStart"].string ?? "" }.filter { $0.contains("T01:00") } == [
                    "2027-10-31T01:00:00+01:00", "2027-10-31T01:00:00+00:00",
                ])
            #expect(october.first?["start"].string == "2027-10-30T23:00:00Z")
            #expect(october.last?["end"].string == "2027-10-31T04:00:00Z")
            // The doubled hour is two slots with two places each: book the second 01:00.
            let second = try #require(october.first { $0["localStart"].string == "2027-10-31T01:00:00+00:00" }?["start"].string)
            #expect(second == "2027-10-31T01:00:00Z")
            let (customer, _) = try await app.shopper(at: store)
            let order = try await app.checkout(customer, slot: second)
            #expect(order.status == .created)
            #expect(order.json["pickupSlot"]["localStart"].string == "2027-10-31T01:00:00+00:00")
            let after = try await app.pickupSlots(store: store, from: "2027-10-31", days: 1).json["items"].array
            #expect(after.filter { $0["remaining"].int == 1 }.map { $0["start"].string } == [second])
        }
    }

    @Test("checkout in a slot: the order shows it, the token expires at its end plus the grace period, the place is taken")
    func checkoutInSlot() async throws {
        try await withApp(clock: TestClock(Self.friday)) { app in
            let (store, _) = try await app.storeWithCalendar(TestApp.everyDay(capacity: 2, grace: 90))
            let (customer, product) = try await app.shopper(at: store)
            #expect(try await app.checkout(customer, slot: nil).errorCode == "slot_required")

            let placed = try await app.checkout(customer, slot: "2027-03-26T14:00:00Z")
            #expect(placed.status == .created)
            #expect(placed.json["pickupSlot"]["start"].string == "2027-03-26T14:00:00Z")
            #expect(placed.json["pickupSlot"]["end"].string == "2027-03-26T14:30:00Z")
            #expect(placed.json["pickupSlot"]["localStart"].string == "2027-03-26T14:00:00+00:00")
            #expect(placed.json["tokenExpiresAt"].string == "2027-03-26T16:00:00Z")
            #expect(try await app.booked(store: store, start: "2027-03-26T14:00:00Z") == 1)
            #expect(try await app.stock(store: store, product: product) == (10, 1))
            let seen = try await app.request(.get, "/v1/orders/\(placed.json["id"].string!)", token: customer.token)
            #expect(seen.json["pickupSlot"] == placed.json["pickupSlot"])
            #expect(
                try await app.request(.get, "/v1/orders", token: customer.token).json["items"][0]["pickupSlot"]["start"].string
                    == "2027-03-26T14:00:00Z")
            let slot = try await app.pickupSlots(store: store, days: 1).json["items"].array.first { $0["start"] == "2027-03-26T14:00:00Z" }
            #expect(slot?["remaining"].int == 1)
            // A receipt issued again at the desk still expires with the slot, not a week from now.
            let staff = try await app.signIn(role: .staff, store: store)
            let reissued = try await app.request(
                .post, "/v1/orders/\(placed.json["id"].string!)/receipt/reissue", json: ["reason": "phone is flat"], token: staff.token)
            #expect(reissued.status == .created)
            // (One second later than the old token: equal claims would sign to the very same text.)
            #expect(reissued.json["tokenExpiresAt"].string == "2027-03-26T16:00:01Z")
        }
    }

    @Test("a slot that cannot be booked is 422 slot_unavailable with its reason; a full one 409 slot_full; neither leaves a trace")
    func refusedSlots() async throws {
        try await withApp(clock: TestClock(Self.friday)) { app in
            let (store, _) = try await app.storeWithCalendar(TestApp.everyDay(capacity: 1, horizon: 3, closures: ["2027-03-27"]))
            let (customer, product) = try await app.shopper(at: store)
            let refusals: [(String, String)] = [
                ("2027-03-26T09:00:00Z", "past"),
                ("2027-03-26T11:30:00Z", "inside_lead_time"),
                ("2027-03-27T12:00:00Z", "closed"),
                ("2027-03-26T20:00:00Z", "closed"),
                ("2027-03-26T12:10:00Z", "not_on_grid"),
                ("2027-03-30T12:00:00Z", "beyond_horizon"),
            ]
            for (slot, reason) in refusals {
                let reply = try await app.checkout(customer, slot: slot)
                #expect(reply.status == .unprocessableContent, "\(slot)")
                #expect(reply.errorCode == "slot_unavailable", "\(slot)")
                #expect(reply.json["error"]["details"]["reason"].string == reason, "\(slot)")
            }
            let (first, _) = try await app.shopper(at: store)
            #expect(try await app.checkout(first, slot: "2027-03-26T12:00:00Z").status == .created)
            let full = try await app.checkout(customer, slot: "2027-03-26T12:00:00Z")
            #expect(full.status == .conflict)
            #expect(full.errorCode == "slot_full")
            // A full slot is still listed, with no place left.
            let listed = try await app.pickupSlots(store: store, days: 1).json["items"][0]
            #expect(listed["start"].string == "2027-03-26T12:00:00Z")
            #expect(listed["remaining"].int == 0)
            #expect(try await app.stock(store: store, product: product) == (10, 0))
            #expect(try await app.request(.get, "/v1/cart", token: customer.token).json["items"].array.count == 1)
            #expect(try await sql("SELECT count(*) FROM orders", on: app.database)[0][0] == "1")
        }
    }

    @Test("a checkout that fails for stock takes no place; a store without a calendar takes orders without slots")
    func failedCheckoutAndPlainStore() async throws {
        try await withApp(clock: TestClock(Self.friday)) { app in
            let (store, _) = try await app.storeWithCalendar(TestApp.everyDay(capacity: 1))
            let (unlucky, _) = try await app.shopper(at: store, onHand: 0)
            #expect(try await app.checkout(unlucky, slot: "2027-03-26T12:00:00Z").errorCode == "insufficient_stock")
            #expect(try await app.booked(store: store, start: "2027-03-26T12:00:00Z") == 0)
            let (lucky, _) = try await app.shopper(at: store)
            #expect(try await app.checkout(lucky, slot: "2027-03-26T12:00:00Z").status == .created)

            let plain = try await app.createStore()
            let (customer, _) = try await app.shopper(at: plain)
            #expect(try await app.checkout(customer, slot: "2027-03-26T12:00:00Z").json["error"]["details"]["reason"].string == "no_calendar")
            let order = try await app.checkout(customer, slot: nil)
            #expect(order.status == .created)
            #expect(order.json.has("pickupSlot") == false)
            // The store's collection window, as before slots: 7 days from the database's now.
            let expiry = try Date(try #require(order.json["tokenExpiresAt"].string), strategy: .iso8601)
            #expect(abs(expiry.timeIntervalSinceNow - 7 * 86_400) < 300)
        }
    }

    @Test("10 customers race for the last place in a slot, each on their own connection: exactly one order, 9 slot_full")
    func lastPlaceRace() async throws {
        try await withApp(clock: TestClock(Self.friday)) { app in
            let (store, _) = try await app.storeWithCalendar(TestApp.everyDay(capacity: 3))
            // Two places taken already; one left.
            for _ in 0..<2 {
                let (customer, _) = try await app.shopper(at: store)
                #expect(try await app.checkout(customer, slot: "2027-03-26T15:00:00Z").status == .created)
            }
            // Each racer buys a product of their own, so no stock row puts them in a queue: only the slot does.
            var racers: [Session] = []
            for _ in 0..<10 { racers.append(try await app.shopper(at: store).0) }
            let shoppers = racers
            let replies = try await app.race(shoppers.count) { index, racer in
                try await racer.checkout(shoppers[index], slot: "2027-03-26T15:00:00Z")
            }
            #expect(replies.filter { $0.status == .created }.count == 1)
            #expect(replies.filter { $0.errorCode == "slot_full" }.count == 9)
            #expect(try await app.booked(store: store, start: "2027-03-26T15:00:00Z") == 3)
            #expect(try await sql("SELECT count(*) FROM orders WHERE pickup_slot_start = '2027-03-26T15:00:00Z'", on: app.database)[0][0] == "3")
            // The losers reserved nothing.
            #expect(try await sql("SELECT sum(reserved) FROM stock WHERE store_id = $1", [store], on: app.database)[0][0] == "3")
        }
    }

    @Test("a customer moves their order to another slot: old place freed, new one taken, a new token expiring with the new slot")
    func moveSlot() async throws {
        try await withApp(clock: TestClock(Self.friday)) { app in
            let (store, _) = try await app.storeWithCalendar(TestApp.everyDay(capacity: 1, grace: 60))
            let staff = try await app.signIn(role: .staff, store: store)
            let (customer, _) = try await app.shopper(at: store)
            let order = try await app.checkout(customer, slot: "2027-03-26T12:00:00Z").json
            let id = try #require(order["id"].string)
            let (other, _) = try await app.shopper(at: store)
            #expect(try await app.checkout(other, slot: "2027-03-26T13:00:00Z").status == .created)

            let moved = try await app.moveSlot(id, to: "2027-03-26T15:30:00Z", by: customer)
            #expect(moved.status == .ok)
            #expect(moved.json["pickupSlot"]["start"].string == "2027-03-26T15:30:00Z")
            #expect(moved.json["tokenExpiresAt"].string == "2027-03-26T17:00:00Z")
            let newToken = try #require(moved.json["pickupToken"].string)
            #expect(newToken != order["pickupToken"].string)
            #expect(try await app.booked(store: store, start: "2027-03-26T12:00:00Z") == 0)
            #expect(try await app.booked(store: store, start: "2027-03-26T15:30:00Z") == 1)
            // The old receipt no longer works; the new one does.
            #expect(try await app.scan(order["pickupToken"].string!, by: staff, preview: true).errorCode == "invalid_token")
            #expect(try await app.scan(newToken, by: staff, preview: true).errorCode == "not_ready")  // a good code, not packed yet

            // A full slot leaves the order where it was; a bad one says why; its own slot changes nothing.
            let full = try await app.moveSlot(id, to: "2027-03-26T13:00:00Z", by: customer)
            #expect(full.errorCode == "slot_full")
            #expect(try await app.booked(store: store, start: "2027-03-26T15:30:00Z") == 1)
            #expect(
                try await app.moveSlot(id, to: "2027-03-26T11:00:00Z", by: customer).json["error"]["details"]["reason"].string
                    == "inside_lead_time")
            let same = try await app.moveSlot(id, to: "2027-03-26T15:30:00Z", by: customer)
            #expect(same.status == .ok)
            #expect(same.json["pickupToken"].string == newToken)
            // Someone else's order is not theirs to move; staff have no such route.
            #expect(try await app.moveSlot(id, to: "2027-03-26T16:00:00Z", by: other).status == .notFound)
            #expect(try await app.moveSlot(id, to: "2027-03-26T16:00:00Z", by: staff).status == .forbidden)
            // Packaged may still move; delivering may not.
            #expect(try await app.transition(id, to: "packaged", by: staff).status == .ok)
            #expect(try await app.moveSlot(id, to: "2027-03-26T16:00:00Z", by: customer).status == .ok)
            #expect(try await app.transition(id, to: "delivering", by: staff).status == .ok)
            let late = try await app.moveSlot(id, to: "2027-03-26T16:30:00Z", by: customer)
            #expect(late.status == .conflict)
            #expect(late.errorCode == "slot_not_changeable")
            #expect(try await app.booked(store: store, start: "2027-03-26T16:00:00Z") == 1)
        }
    }

    @Test("cancelling frees the place, whoever cancels: the customer while pending, staff once packaged")
    func cancellingFrees() async throws {
        try await withApp(clock: TestClock(Self.friday)) { app in
            let (store, _) = try await app.storeWithCalendar(TestApp.everyDay(capacity: 1))
            let staff = try await app.signIn(role: .staff, store: store)
            let (customer, _) = try await app.shopper(at: store)
            let first = try await app.checkout(customer, slot: "2027-03-26T12:00:00Z").json["id"].string!
            #expect(try await app.request(.post, "/v1/orders/\(first)/cancel", token: customer.token).status == .ok)
            #expect(try await app.booked(store: store, start: "2027-03-26T12:00:00Z") == 0)

            let (next, _) = try await app.shopper(at: store)
            let second = try await app.checkout(next, slot: "2027-03-26T12:00:00Z")
            #expect(second.status == .created)
            let id = second.json["id"].string!
            #expect(try await app.transition(id, to: "packaged", by: staff).status == .ok)
            #expect(try await app.transition(id, to: "cancelled", by: staff).status == .ok)
            #expect(try await app.booked(store: store, start: "2027-03-26T12:00:00Z") == 0)
            let (third, _) = try await app.shopper(at: store)
            #expect(try await app.checkout(third, slot: "2027-03-26T12:00:00Z").status == .created)
            // A cancelled order keeps the slot it had, for the record, and cannot move.
            #expect(try await app.moveSlot(first, to: "2027-03-26T13:00:00Z", by: customer).errorCode == "slot_not_changeable")
        }
    }

    @Test("two customers swap slots at the same moment on their own connections: both moves land, nothing deadlocks")
    func crossingMoves() async throws {
        try await withApp(clock: TestClock(Self.friday)) { app in
            let (store, _) = try await app.storeWithCalendar(TestApp.everyDay(capacity: 2))
            let slots = ["2027-03-26T12:00:00Z", "2027-03-26T12:30:00Z"]
            var orders: [(Session, String)] = []
            for slot in slots {
                let (customer, _) = try await app.shopper(at: store)
                orders.append((customer, try await app.checkout(customer, slot: slot).json["id"].string!))
            }
            let placed = orders
            for _ in 0..<5 {
                let current = try await sql(
                    "SELECT to_char(pickup_slot_start AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') FROM orders ORDER BY number",
                    on: app.database
                ).map { $0[0]! }
                let replies = try await app.race(2) { index, racer in
                    try await racer.moveSlot(placed[index].1, to: current[1 - index], by: placed[index].0)
                }
                #expect(replies.map(\.status) == [.ok, .ok])
            }
            #expect(try await app.booked(store: store, start: slots[0]) == 1)
            #expect(try await app.booked(store: store, start: slots[1]) == 1)
        }
    }

    @Test("a pick list takes the orders of the earliest slots first, and its sheet says each tote's slot")
    func pickListBySlot() async throws {
        try await withApp(clock: TestClock(Self.friday)) { app in
            let (store, _) = try await app.storeWithCalendar(TestApp.everyDay(capacity: 2))
            let staff = try await app.signIn(role: .staff, store: store)
            var numbers: [String: Int] = [:]
            for slot in ["2027-03-26T16:00:00Z", "2027-03-26T12:30:00Z", "2027-03-26T14:00:00Z", "2027-03-26T12:30:00Z"] {
                let (customer, _) = try await app.shopper(at: store)
                let reply = try await app.checkout(customer, slot: slot)
                numbers[reply.json["id"].string!] = reply.json["number"].int
            }
            let list = try await app.request(.post, "/v1/stores/\(store)/pick-lists", json: ["maxOrders": 3], token: staff.token)
            #expect(list.status == .created)
            let ids = Set(list.json["totes"].array.compactMap { $0["orderId"].string })
            let slots = try await sql(
                "SELECT id, to_char(pickup_slot_start AT TIME ZONE 'UTC', 'HH24:MI') FROM orders", on: app.database)
            let picked = slots.filter { ids.contains($0[0]!) }.map { $0[1]! }.sorted()
            #expect(picked == ["12:30", "12:30", "14:00"])
            let text = try await app.request(.get, "/v1/pick-lists/\(list.json["id"].string!).txt", token: staff.token).text
            #expect(text.contains("Fri 26 Mar 12:30–13:00"))
            let html = try await app.request(.get, "/v1/pick-lists/\(list.json["id"].string!).html", token: staff.token).text
            #expect(html.contains("<span class=\"slot\">Fri 26 Mar 14:00–14:30</span>"))
        }
    }

    @Test("make run's demo store has a calendar, and its demo orders are booked into its earliest slots")
    func demoStore() async throws {
        try await withApp { app in
            let demo = try await app.loadDemo()
            let store = demo.storeID.uuidString.lowercased()
            let email = "demo-\(UUID().uuidString.prefix(8))@example.com"
            _ = try await app.registerCustomer(email: email)
            let database = try FulfilmentDomain.Database(connection: app.database, logger: .init(label: "test"))
            let keyring = app.keyring
            let numbers = try await withRunning(database) {
                try await DemoOrders.place(
                    into: database, signer: keyring.signer, customerEmail: email, store: StoreID(demo.storeID), logger: .init(label: "test"))
            }
            #expect(numbers.count == 3)
            let slots = try await app.pickupSlots(store: store, days: 2)
            #expect(slots.json["timeZone"].string == "America/Jamaica")
            #expect(slots.json["items"].array.isEmpty == false)
            let booked = try await sql(
                "SELECT count(*), count(DISTINCT pickup_slot_start) FROM orders WHERE store_id = $1 AND pickup_slot_start IS NOT NULL",
                [store], on: app.database)
            #expect(booked[0] == ["3", "2"])
            #expect(try await sql("SELECT sum(booked) FROM pickup_slot_bookings WHERE store_id = $1", [store], on: app.database)[0][0] == "3")
        }
    }
}
