import Foundation
import Logging
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Issue 47, "slots the store can keep": a slot counts the pick work booked into it, not only its
/// orders. The manager plans pickers per hour (the rota); each order's work is estimated from its
/// lines; a slot takes an order only while its work fits the pickers' time, and says when it is
/// filling up, full, and why.
///
/// The numbers of these stories: one picker over a half-hour slot is 1,800 s × 80 % = 1,440 s of
/// picking; one line of 99 units is 60 + 20 + 98 × 3 = 374 s, one line of one unit 80 s.
@Suite("Slot work: slots the store can keep")
struct SlotWorkTests {
    /// Friday morning in London (GMT): the first bookable slot is noon.
    static let friday = "2027-03-26T10:00:00Z"
    static let noon = "2027-03-26T12:00:00Z"
    static let oneThirty = "2027-03-26T13:30:00Z"

    @Test("the manager plans the store's pickers and reads its pick estimate; the chain's admin too; no one else")
    func rotaByManagers() async throws {
        try await withApp(clock: TestClock(Self.friday)) { app in
            let (store, manager) = try await app.storeWithCalendar()
            // Before any rota: one picker an hour, and the default estimate of a store with no recorded picks.
            let before = try await app.request(.get, "/v1/stores/\(store)/rota", token: manager.token)
            #expect(before.status == .ok)
            #expect(before.json["defaultPickers"].int == 1)
            #expect(before.json["hours"].array.isEmpty)
            #expect(before.json["utilisationPercent"].int == 80)
            #expect(before.json["estimate"]["perOrderSeconds"].int == 60)
            #expect(before.json["estimate"]["perLineSeconds"].int == 20)
            #expect(before.json["estimate"]["perUnitSeconds"].int == 3)
            #expect(before.json["estimate"]["learnedFromBatches"].int == 0)
            #expect(before.json["estimate"].has("learnedAt") == false)

            let rota: JSONValue = [
                "defaultPickers": 2,
                "hours": [["weekday": "saturday", "hour": 11, "pickers": 4], ["weekday": "saturday", "hour": 10, "pickers": 4]],
            ]
            let set = try await app.setRota(store: store, by: manager, rota)
            #expect(set.status == .ok)
            #expect(set.json["defaultPickers"].int == 2)
            #expect(set.json["hours"].array.map { $0["hour"].int } == [10, 11], "in week order")
            let admin = try await app.signInAdmin()
            let read = try await app.request(.get, "/v1/stores/\(store)/rota", token: admin.token)
            #expect(read.json == set.json)
            #expect(try await app.setRota(store: store, by: admin, ["defaultPickers": 3, "hours": []]).json["defaultPickers"].int == 3)

            let staff = try await app.signIn(role: .staff, store: store)
            let customer = try await app.registerCustomer()
            let elsewhere = try await app.signIn(role: .manager, store: try await app.createStore())
            for outsider in [staff, customer, elsewhere] {
                #expect(try await app.setRota(store: store, by: outsider, rota).status == .forbidden)
                #expect(try await app.request(.get, "/v1/stores/\(store)/rota", token: outsider.token).status == .forbidden)
            }
            #expect(try await app.request(.get, "/v1/stores/\(store)/rota").status == .unauthorized)
            #expect(try await app.request(.get, "/v1/stores/\(store)/rota", token: admin.token).json["defaultPickers"].int == 3)
        }
    }

    @Test("a rota naming an hour twice, or pickers or an hour out of bounds, is 422 invalid_rota naming the field, and changes nothing")
    func invalidRota() async throws {
        try await withApp(clock: TestClock(Self.friday)) { app in
            let (store, manager) = try await app.storeWithCalendar()
            #expect(try await app.setRota(store: store, by: manager, ["defaultPickers": 2, "hours": []]).status == .ok)
            let wrong: [(JSONValue, String)] = [
                (["hours": [["weekday": "monday", "hour": 9, "pickers": 1], ["weekday": "monday", "hour": 9, "pickers": 2]]], "hours[1]"),
                (["hours": [["weekday": "monday", "hour": 24, "pickers": 1]]], "hours[0].hour"),
                (["hours": [["weekday": "monday", "hour": 9, "pickers": 51]]], "hours[0].pickers"),
                (["hours": [["weekday": "monday", "hour": 9, "pickers": -1]]], "hours[0].pickers"),
                (["defaultPickers": 9_223_372_036_854_775_807, "hours": []], "defaultPickers"),
            ]
            for (body, field) in wrong {
                let reply = try await app.setRota(store: store, by: manager, body)
                #expect(reply.status == .unprocessableContent, "\(field)")
                #expect(reply.errorCode == "invalid_rota", "\(field): \(reply.text)")
                #expect(reply.json["error"]["details"]["field"].string == field)
            }
            #expect(try await app.request(.get, "/v1/stores/\(store)/rota", token: manager.token).json["defaultPickers"].int == 2)
        }
    }

    @Test("big orders fill a slot's pickers before its places: filling, then slot_full because of work; cancelling gives the work back")
    func workFillsTheSlot() async throws {
        try await withApp(clock: TestClock(Self.friday)) { app in
            let (store, manager) = try await app.storeWithCalendar(TestApp.everyDay(capacity: 10))
            let staff = try await app.signIn(role: .staff, store: store)
            #expect(try await app.setRota(store: store, by: manager, ["defaultPickers": 1, "hours": []]).status == .ok)
            #expect(try await app.slot(Self.noon, of: store)["status"].string == "available")

            // Three orders of 99 units: 3 × 374 = 1,122 s of the 1,440, over three quarters.
            var big: [String] = []
            for _ in 0..<3 {
                let (customer, _) = try await app.shopper(at: store, units: 99)
                let placed = try await app.checkout(customer, slot: Self.noon)
                #expect(placed.status == .created)
                big.append(try #require(placed.json["id"].string))
            }
            #expect(try await app.workBooked(store: store, start: Self.noon) == 1_122)
            var slot = try await app.slot(Self.noon, of: store)
            #expect(slot["status"].string == "filling")
            #expect(slot["remaining"].int == 7)
            #expect(slot.has("fullBecause") == false)

            // A fourth would need 374 s more: refused for its work with 7 places left, and it holds nothing.
            let (late, _) = try await app.shopper(at: store, units: 99)
            let refused = try await app.checkout(late, slot: Self.noon)
            #expect(refused.status == .conflict)
            #expect(refused.errorCode == "slot_full")
            #expect(refused.json["error"]["details"]["reason"].string == "work")
            #expect(refused.json["error"]["message"].string?.contains("pickers") == true)
            #expect(try await sql("SELECT count(*) FROM orders WHERE customer_id = $1", [late.userID], on: app.database)[0][0] == "0")
            // Another slot has its own pickers.
            #expect(try await app.checkout(late, slot: Self.oneThirty).status == .created)

            // Small orders still fit until not even one line does: 1,122 + 3 × 80 = 1,362; a fourth would be 1,442.
            for _ in 0..<3 {
                #expect(try await app.checkout(try await app.shopper(at: store).0, slot: Self.noon).status == .created)
            }
            let (small, _) = try await app.shopper(at: store)
            #expect(try await app.checkout(small, slot: Self.noon).json["error"]["details"]["reason"].string == "work")
            slot = try await app.slot(Self.noon, of: store)
            #expect(slot["status"].string == "full")
            #expect(slot["fullBecause"].string == "work")
            #expect(slot["remaining"].int == 4, "places are left; the pickers' time is not")
            #expect(try await app.workBooked(store: store, start: Self.noon) == 1_362)

            // Cancelling a big order gives its 374 s back: the slot has room again.
            #expect(try await app.transition(big[0], to: "cancelled", by: staff).status == .ok)
            #expect(try await app.workBooked(store: store, start: Self.noon) == 988)
            #expect(try await app.slot(Self.noon, of: store)["status"].string == "available")
            #expect(try await app.checkout(small, slot: Self.noon).status == .created)
        }
    }

    @Test("a slot full of orders says so: slot_full because of places, the list's fullBecause places")
    func placesStillLimit() async throws {
        try await withApp(clock: TestClock(Self.friday)) { app in
            let (store, manager) = try await app.storeWithCalendar(TestApp.everyDay(capacity: 2))
            #expect(try await app.setRota(store: store, by: manager, ["defaultPickers": 5, "hours": []]).status == .ok)
            for _ in 0..<2 { #expect(try await app.checkout(try await app.shopper(at: store).0, slot: Self.noon).status == .created) }
            let refused = try await app.checkout(try await app.shopper(at: store).0, slot: Self.noon)
            #expect(refused.errorCode == "slot_full")
            #expect(refused.json["error"]["details"]["reason"].string == "places")
            let slot = try await app.slot(Self.noon, of: store)
            #expect(slot["status"].string == "full")
            #expect(slot["fullBecause"].string == "places")
        }
    }

    @Test("the rota's hours make the capacity: no pickers is full because of work; an empty slot takes one order bigger than it")
    func hoursOfTheRota() async throws {
        try await withApp(clock: TestClock(Self.friday)) { app in
            let (store, manager) = try await app.storeWithCalendar(TestApp.everyDay(capacity: 10))
            // Friday 12:00–13:00 nobody picks; 13:00–14:00 two pickers (2,880 s a slot); otherwise one.
            let rota: JSONValue = [
                "defaultPickers": 1,
                "hours": [["weekday": "friday", "hour": 12, "pickers": 0], ["weekday": "friday", "hour": 13, "pickers": 2]],
            ]
            #expect(try await app.setRota(store: store, by: manager, rota).status == .ok)
            let slots = try await app.pickupSlots(store: store, from: "2027-03-26", days: 1).json["items"].array
            let byStart = Dictionary(uniqueKeysWithValues: slots.compactMap { slot in slot["start"].string.map { ($0, slot) } })
            #expect(byStart[Self.noon]?["status"].string == "full")
            #expect(byStart[Self.noon]?["fullBecause"].string == "work")
            #expect(byStart[Self.oneThirty]?["status"].string == "available")
            let (customer, _) = try await app.shopper(at: store)
            #expect(try await app.checkout(customer, slot: Self.noon).json["error"]["details"]["reason"].string == "work")

            // Seven orders of 374 s fit two pickers' 2,880 s (2,618); the eighth does not.
            for _ in 0..<7 {
                #expect(try await app.checkout(try await app.shopper(at: store, units: 99).0, slot: Self.oneThirty).status == .created)
            }
            #expect(try await app.checkout(try await app.shopper(at: store, units: 99).0, slot: Self.oneThirty).status == .conflict)

            // One picker's slot (14:00) takes a first order of 30 lines of 99 units (9,480 s) whole:
            // otherwise it could never be placed; then nothing more fits.
            let huge = try await app.registerCustomer()
            var lines: [(String, Int)] = []
            for _ in 0..<30 { lines.append((try await app.addProduct(store: store, onHand: 99), 99)) }
            try await app.fillCart(huge, store: store, lines)
            #expect(try await app.checkout(huge, slot: "2027-03-26T14:00:00Z").status == .created)
            #expect(try await app.workBooked(store: store, start: "2027-03-26T14:00:00Z") == 60 + 30 * 20 + 30 * 98 * 3)
            #expect(try await app.slot("2027-03-26T14:00:00Z", of: store)["fullBecause"].string == "work")
        }
    }

    @Test(
        "12 customers race for a slot's pick work, each on their own connection: exactly the 3 orders its picker can do, 9 slot_full because of work")
    func workRace() async throws {
        try await withApp(clock: TestClock(Self.friday)) { app in
            let (store, manager) = try await app.storeWithCalendar(TestApp.everyDay(capacity: 100))
            // One picker: 1,440 s of picking, room for three orders of 374 s (1,122) and not four (1,496).
            #expect(try await app.setRota(store: store, by: manager, ["defaultPickers": 1, "hours": []]).status == .ok)
            // Each racer buys a product of their own, so no stock row puts them in a queue: only the slot's counter row does.
            var racers: [Session] = []
            for _ in 0..<12 { racers.append(try await app.shopper(at: store, units: 99).0) }
            let shoppers = racers
            let replies = try await app.race(shoppers.count) { index, racer in
                try await racer.checkout(shoppers[index], slot: Self.noon)
            }
            #expect(replies.filter { $0.status == .created }.count == 3)
            #expect(replies.filter { $0.errorCode == "slot_full" && $0.json["error"]["details"]["reason"].string == "work" }.count == 9)
            #expect(try await app.workBooked(store: store, start: Self.noon) == 3 * 374)
            #expect(try await app.booked(store: store, start: Self.noon) == 3)
            // What the counter row says is what the orders hold: no work booked twice, none lost.
            #expect(
                try await sql(
                    "SELECT sum(pick_work_seconds) FROM orders WHERE store_id = $1 AND pickup_slot_start = $2::timestamptz", [store, Self.noon],
                    on: app.database)[0][0] == "1122")
            // The losers reserved nothing.
            #expect(try await sql("SELECT sum(reserved) FROM stock WHERE store_id = $1", [store], on: app.database)[0][0] == "297")
        }
    }

    @Test("moving an order takes its work to the new slot and gives it back in the old; a slot without room for it leaves it where it was")
    func moveCarriesTheWork() async throws {
        try await withApp(clock: TestClock(Self.friday)) { app in
            let (store, manager) = try await app.storeWithCalendar(TestApp.everyDay(capacity: 10))
            #expect(try await app.setRota(store: store, by: manager, ["defaultPickers": 1, "hours": []]).status == .ok)
            let (customer, _) = try await app.shopper(at: store, units: 99)
            let order = try #require(try await app.checkout(customer, slot: Self.noon).json["id"].string)
            for _ in 0..<3 {
                #expect(try await app.checkout(try await app.shopper(at: store, units: 99).0, slot: Self.oneThirty).status == .created)
            }
            let full = try await app.moveSlot(order, to: Self.oneThirty, by: customer)
            #expect(full.errorCode == "slot_full")
            #expect(full.json["error"]["details"]["reason"].string == "work")
            #expect(try await app.workBooked(store: store, start: Self.noon) == 374)

            #expect(try await app.moveSlot(order, to: "2027-03-26T15:00:00Z", by: customer).status == .ok)
            #expect(try await app.workBooked(store: store, start: Self.noon) == 0)
            #expect(try await app.workBooked(store: store, start: "2027-03-26T15:00:00Z") == 374)
        }
    }

    @Test("an uncollected order's expiry gives its place and its work back to the slot")
    func expiryGivesTheWorkBack() async throws {
        try await withApp(clock: TestClock(Self.friday)) { app in
            let (store, manager) = try await app.storeWithCalendar(TestApp.everyDay(capacity: 10, grace: 60))
            #expect(try await app.setRota(store: store, by: manager, ["defaultPickers": 1, "hours": []]).status == .ok)
            #expect(try await app.checkout(try await app.shopper(at: store, units: 99).0, slot: Self.noon).status == .created)
            #expect(try await app.workBooked(store: store, start: Self.noon) == 374)
            // Its slot ended at 12:30 and the grace period an hour later: by midnight it is swept.
            let midnight = try Date("2027-03-27T00:00:00Z", strategy: .iso8601)
            let swept = try await app.withDatabase { try await OrderExpiry(database: $0).sweep(now: midnight, logger: Logger(label: "test")) }
            #expect(swept.count == 1)
            #expect(try await app.workBooked(store: store, start: Self.noon) == 0)
            #expect(try await app.booked(store: store, start: Self.noon) == 0)
        }
    }

    @Test("the store's own recorded picks teach its estimate: pick lists that took twice the defaults' time double it")
    func learnedEstimate() async throws {
        try await withApp(clock: TestClock(Self.friday)) { app in
            let (store, manager) = try await app.storeWithCalendar()
            let (shopper, _) = try await app.shopper(at: store)
            let orderID = try #require(try await app.checkout(shopper, slot: Self.oneThirty).json["id"].string)
            let picker = try await app.signIn(role: .staff, store: store)
            // Twelve completed pick lists of that order's one line of one unit (the defaults: 80 s),
            // each 160 s from its start to its last pick, in the last week; one taking five hours, ignored.
            try await sql(
                """
                WITH b AS (
                    INSERT INTO pick_lists (store_id, status, created_by, created_at, completed_at)
                    SELECT $1, 'completed', $3, now() - n * interval '10 hours', now() - n * interval '10 hours' + interval '200 seconds'
                    FROM generate_series(1, 13) n
                    RETURNING id, created_at
                ), o AS (
                    INSERT INTO pick_list_orders (store_id, pick_list_id, order_id, tote, open)
                    SELECT $1, b.id, $2, 'A', false FROM b RETURNING pick_list_id
                )
                INSERT INTO picks (store_id, pick_list_id, order_id, product_id, quantity, picked_by, picked_at)
                SELECT $1, b.id, $2, l.product_id, 1, $3,
                       b.created_at + CASE WHEN row_number() OVER (ORDER BY b.created_at) = 1 THEN interval '5 hours' ELSE interval '160 seconds' END
                FROM b JOIN o ON o.pick_list_id = b.id JOIN order_lines l ON l.order_id = $2
                """, [store, orderID, picker.userID], on: app.database)
            let learned = try await app.setRota(store: store, by: manager, ["defaultPickers": 1, "hours": []]).json["estimate"]
            #expect(learned["learnedFromBatches"].int == 12)
            #expect(learned["perOrderSeconds"].int == 120)
            #expect(learned["perLineSeconds"].int == 40)
            #expect(learned["perUnitSeconds"].int == 6)
            #expect(learned.has("learnedAt"))
            // The next order books its work at the learned estimate: one line of one unit, 160 s.
            let (customer, _) = try await app.shopper(at: store)
            #expect(try await app.checkout(customer, slot: Self.noon).status == .created)
            #expect(try await app.workBooked(store: store, start: Self.noon) == 160)
        }
    }

    @Test("make run's demo store has a rota: two pickers an hour, one at opening, three at the busy times")
    func demoRota() async throws {
        try await withApp { app in
            let demo = try await app.loadDemo()
            let store = demo.storeID.uuidString.lowercased()
            let manager = try await app.signIn(role: .manager, store: store)
            let rota = try await app.request(.get, "/v1/stores/\(store)/rota", token: manager.token).json
            #expect(rota["defaultPickers"].int == 2)
            let hours = rota["hours"].array
            #expect(hours.filter { $0["pickers"].int == 1 }.count == 7, "08:00 every day")
            #expect(hours.filter { $0["weekday"].string == "saturday" && $0["pickers"].int == 3 }.map { $0["hour"].int } == [10, 11, 12, 13])
            #expect(hours.filter { $0["weekday"].string == "friday" && $0["pickers"].int == 3 }.count == 5)
        }
    }
}

extension TestApp {
    /// The store's manager (or the chain's admin) sets its rota through the API.
    @discardableResult
    func setRota(store: String, by session: Session, _ rota: JSONValue) async throws -> TestReply {
        try await request(.put, "/v1/stores/\(store)/rota", json: rota, token: session.token)
    }

    /// A new customer with `units` of one new product in the cart at `store` (one line).
    func shopper(at store: String, units: Int) async throws -> (Session, String) {
        let customer = try await registerCustomer()
        let product = try await addProduct(store: store, onHand: units)
        try await fillCart(customer, store: store, [(product, units)])
        return (customer, product)
    }

    /// The slot starting at `start` as the public list shows it (on its local day).
    func slot(_ start: String, of store: String) async throws -> JSONValue {
        let items = try await pickupSlots(store: store, from: String(start.prefix(10)), days: 1).json["items"].array
        guard let slot = items.first(where: { $0["start"].string == start }) else { throw TestSetupError("no slot at \(start)") }
        return slot
    }

    /// Seconds of pick work booked in the slot starting at `start` (0 when none was ever booked).
    func workBooked(store: String, start: String) async throws -> Int {
        let rows = try await sql(
            "SELECT work_seconds FROM pickup_slot_bookings WHERE store_id = $1 AND slot_start = $2::timestamptz", [store, start],
            on: database)
        return rows.first.flatMap { $0[0] }.flatMap { Int($0) } ?? 0
    }
}
