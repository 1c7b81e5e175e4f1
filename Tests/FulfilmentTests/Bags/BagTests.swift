import Foundation
import HTTPTypes
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Every bag handed over (issue 47): packing records an order's bags, staff stage each bag in one
/// of the store's places by its label's code, and the desk hands an order over only when it
/// counted every bag out.
@Suite("Bags, staging and the counted hand-over")
struct BagTests {
    /// A store with a manager and a staff member.
    struct Shop {
        var app: TestApp
        var store: String
        var manager: Session
        var staff: Session

        static func make(_ app: TestApp) async throws -> Shop {
            let store = try await app.createStore()
            return Shop(
                app: app, store: store, manager: try await app.signIn(role: .manager, store: store),
                staff: try await app.signIn(role: .staff, store: store))
        }

        /// A new customer's pending order; its JSON as the customer saw it.
        func order() async throws -> JSONValue {
            try await app.placeOrder(store: store).1
        }

        /// Packs `order` in bags of these zones (none: the field left out).
        func pack(_ order: JSONValue, _ zones: [String]? = nil) async throws -> TestReply {
            var body: [String: JSONValue] = ["to": "packaged"]
            if let zones { body["bags"] = .array(zones.map(JSONValue.string)) }
            return try await app.request(.post, "/v1/orders/\(order["id"].string!)/transitions", json: .object(body), token: staff.token)
        }

        /// Sets the store's places, by its manager; their ids by name.
        @discardableResult
        func places(_ places: [(String, String)]) async throws -> [String: String] {
            let reply = try await app.request(
                .put, "/v1/stores/\(store)/staging-places",
                json: ["places": .array(places.map { ["name": .string($0.0), "kind": .string($0.1)] })], token: manager.token)
            guard reply.status == .ok else { throw TestSetupError("places: \(reply.status) \(reply.text)") }
            var ids: [String: String] = [:]
            for item in reply.json["items"].array { ids[item["name"].string!] = item["id"].string! }
            return ids
        }

        func stage(_ code: String, in place: String, by session: Session? = nil) async throws -> TestReply {
            try await app.request(
                .post, "/v1/bags/stage", json: ["bagCode": .string(code), "placeId": .string(place)], token: (session ?? staff).token)
        }

        func get(_ order: JSONValue) async throws -> JSONValue {
            try await app.request(.get, "/v1/orders/\(order["id"].string!)", token: staff.token).json
        }

        func collect(_ order: JSONValue, bags: Int?) async throws -> TestReply {
            var body: [String: JSONValue] = ["token": order["pickupToken"]]
            if let bags { body["bagsHandedOver"] = .int(bags) }
            return try await app.request(.post, "/v1/collections", json: .object(body), token: staff.token)
        }
    }

    @Test("packing names each bag's zone; the order shows its bags with codes for their labels; packed without bags it is one ambient bag")
    func packingRecordsBags() async throws {
        try await withApp { app in
            let shop = try await Shop.make(app)
            let order = try await shop.order()
            let number = try #require(order["number"].int)
            #expect(try await shop.get(order)["bags"].array.isEmpty)
            let packed = try await shop.pack(order, ["ambient", "chilled", "frozen"])
            #expect(packed.status == .ok, "\(packed.text)")
            let bags = packed.json["bags"].array
            #expect(bags.map { $0["number"].int } == [1, 2, 3])
            #expect(bags.map { $0["zone"].string } == ["ambient", "chilled", "frozen"])
            #expect(bags.map { $0["code"].string } == ["\(number)-1", "\(number)-2", "\(number)-3"])
            #expect(try await shop.get(order)["bags"] == packed.json["bags"])
            // No places at this store: packed is ready, and there is nothing to count staged.
            #expect(packed.json["readyForPickup"] == true)
            #expect(packed.json["bagsStaged"] == .null)

            let plain = try await shop.order()
            let reply = try await shop.pack(plain)
            #expect(reply.json["bags"].array.map { $0["zone"].string } == ["ambient"])
        }
    }

    @Test("a bag count outside 1 to 50, or bags named on a move that is not packing, is 422 and changes nothing")
    func bagCountBounded() async throws {
        try await withApp { app in
            let shop = try await Shop.make(app)
            let order = try await shop.order()
            let none = try await shop.pack(order, [])
            #expect(none.status == .unprocessableContent && none.json["error"]["details"]["field"] == "bags", "\(none.text)")
            let many = try await shop.pack(order, Array(repeating: "ambient", count: 51))
            #expect(many.status == .unprocessableContent && many.json["error"]["details"]["field"] == "bags")
            let unknown = try await shop.pack(order, ["lukewarm"])
            #expect(unknown.status.code / 100 == 4)
            let cancel = try await app.request(
                .post, "/v1/orders/\(order["id"].string!)/transitions", json: ["to": "cancelled", "bags": ["frozen"]], token: shop.staff.token)
            #expect(cancel.status == .unprocessableContent && cancel.json["error"]["details"]["field"] == "bags")
            let after = try await shop.get(order)
            #expect(after["status"] == "pending" && after["bags"].array.isEmpty)
            #expect(try await shop.pack(order, Array(repeating: "frozen", count: 50)).json["bags"].array.count == 50)
        }
    }

    @Test("a manager sets the store's places, its staff read them and may not set them; a name twice is 422")
    func placesKeptByTheManager() async throws {
        try await withApp { app in
            let shop = try await Shop.make(app)
            let ids = try await shop.places([("Shelf A", "shelf"), ("Fridge", "fridge"), ("Freezer", "freezer"), ("Kerb bay 1", "kerb_bay")])
            #expect(ids.count == 4)
            let read = try await app.request(.get, "/v1/stores/\(shop.store)/staging-places", token: shop.staff.token)
            #expect(read.status == .ok)
            #expect(read.json["items"].array.map { $0["name"].string } == ["Shelf A", "Fridge", "Freezer", "Kerb bay 1"])
            #expect(read.json["items"][3]["kind"] == "kerb_bay" && read.json["items"][0]["bagsHeld"] == 0)
            #expect(read.json["nextCursor"] == .null && read.text.contains("\"nextCursor\":null"))
            let byStaff = try await app.request(
                .put, "/v1/stores/\(shop.store)/staging-places", json: ["places": []], token: shop.staff.token)
            #expect(byStaff.status == .forbidden)
            let twice = try await app.request(
                .put, "/v1/stores/\(shop.store)/staging-places",
                json: ["places": [["name": "Shelf A", "kind": "shelf"], ["name": "shelf a ", "kind": "locker"]]], token: shop.manager.token)
            #expect(twice.status == .unprocessableContent && twice.errorCode == "invalid_staging_places")
            #expect(twice.json["error"]["details"]["field"] == "places[1].name")
            // A name kept keeps its place; the others go.
            let kept = try await shop.places([("Fridge", "fridge")])
            #expect(kept == ["Fridge": ids["Fridge"]!])
        }
    }

    @Test(
        "staff stage bags by their codes: a chilled bag outside a fridge is 409 wrong_place_for_zone; the order is ready once every bag is staged, and the desk's preview says where each is"
    )
    func stagingUntilReady() async throws {
        try await withApp { app in
            let shop = try await Shop.make(app)
            let places = try await shop.places([("Shelf A", "shelf"), ("Fridge", "fridge"), ("Freezer", "freezer")])
            let order = try await shop.order()
            let number = try #require(order["number"].int)
            // Not packed yet: its bag does not exist.
            #expect(try await shop.stage("\(number)-1", in: places["Shelf A"]!).errorCode == "bag_not_found")
            #expect(try await shop.pack(order, ["ambient", "chilled"]).json["readyForPickup"] == false)
            #expect(try await shop.get(order)["bagsStaged"] == ["staged": 0, "of": 2])

            let wrong = try await shop.stage("\(number)-2", in: places["Shelf A"]!)
            #expect(wrong.status == .conflict && wrong.errorCode == "wrong_place_for_zone", "\(wrong.text)")
            #expect(wrong.json["error"]["details"] == ["zone": "chilled", "placeKind": "shelf"])
            #expect(try await shop.get(order)["bags"][1]["place"] == .null)

            let first = try await shop.stage(" \(number)-1\r\n", in: places["Shelf A"]!)
            #expect(first.status == .ok, "\(first.text)")
            #expect(first.json["bag"]["place"]["name"] == "Shelf A" && first.json["bagsStaged"] == ["staged": 1, "of": 2])
            #expect(first.json["readyForPickup"] == false)
            let second = try await shop.stage("\(number)-2", in: places["Fridge"]!)
            #expect(second.json["readyForPickup"] == true && second.json["bagsStaged"] == ["staged": 2, "of": 2])

            // Moved: a bag staged again is in its new place.
            #expect(try await shop.stage("\(number)-1", in: places["Freezer"]!).json["bag"]["place"]["name"] == "Freezer")
            let read = try await app.request(.get, "/v1/stores/\(shop.store)/staging-places", token: shop.staff.token)
            #expect(read.json["items"].array.map { $0["bagsHeld"].int } == [0, 1, 1])

            #expect(try await app.pay(order, by: shop.staff).status == .created)
            let preview = try await app.scan(order["pickupToken"].string!, by: shop.staff, preview: true)
            #expect(preview.status == .ok)
            #expect(preview.json["bags"].array.map { $0["place"]["name"].string } == ["Freezer", "Fridge"])
        }
    }

    @Test("a bag or place of another store is not found; a place holding bags cannot be removed or change kind")
    func stagingScopedAndPlacesInUse() async throws {
        try await withApp { app in
            let shop = try await Shop.make(app)
            let other = try await Shop.make(app)
            let places = try await shop.places([("Freezer", "freezer"), ("Shelf A", "shelf")])
            let theirs = try await other.places([("Freezer", "freezer")])
            let order = try await shop.order()
            let code = "\(order["number"].int!)-1"
            _ = try await shop.pack(order, ["frozen"])
            #expect(try await other.stage(code, in: theirs["Freezer"]!).errorCode == "bag_not_found")
            #expect(try await shop.stage(code, in: theirs["Freezer"]!).errorCode == "place_not_found")
            #expect(try await shop.stage(code, in: places["Freezer"]!).status == .ok)

            let removed = try await app.request(
                .put, "/v1/stores/\(shop.store)/staging-places", json: ["places": [["name": "Shelf A", "kind": "shelf"]]],
                token: shop.manager.token)
            #expect(removed.status == .conflict && removed.errorCode == "place_in_use")
            let retyped = try await app.request(
                .put, "/v1/stores/\(shop.store)/staging-places", json: ["places": [["name": "Freezer", "kind": "shelf"]]],
                token: shop.manager.token)
            #expect(retyped.errorCode == "place_in_use")
            #expect(try await shop.get(order)["bags"][0]["place"]["name"] == "Freezer")
        }
    }

    @Test(
        "the desk hands over an order of three bags only when three are counted: fewer, or no count, is 409 bags_missing and changes nothing; an order of one bag needs no count"
    )
    func handOverCountsBags() async throws {
        try await withApp { app in
            let shop = try await Shop.make(app)
            let order = try await shop.order()
            _ = try await shop.pack(order, ["ambient", "chilled", "frozen"])
            #expect(try await app.pay(order, by: shop.staff).status == .created)

            let silent = try await shop.collect(order, bags: nil)
            #expect(silent.status == .conflict && silent.errorCode == "bags_missing", "\(silent.text)")
            #expect(silent.json["error"]["details"] == ["expected": 3, "given": .null])
            let short = try await shop.collect(order, bags: 2)
            #expect(short.errorCode == "bags_missing" && short.json["error"]["details"] == ["expected": 3, "given": 2])
            let unchanged = try await shop.get(order)
            #expect(unchanged["status"] == "packaged")
            #expect(unchanged["bags"].array.allSatisfy { $0["handedOverAt"] == .null })
            #expect(try await shop.collect(order, bags: 51).status == .unprocessableContent)

            let counted = try await shop.collect(order, bags: 3)
            #expect(counted.status == .ok && counted.json["status"] == "completed", "\(counted.text)")
            #expect(counted.json["bags"].array.allSatisfy { $0["handedOverAt"].string != nil })

            let single = try await shop.order()
            _ = try await shop.pack(single)
            #expect(try await app.pay(single, by: shop.staff).status == .created)
            #expect(try await shop.collect(single, bags: nil).json["status"] == "completed")
        }
    }

    @Test(
        "a bag staged into a place while the manager removes that place, each on its own connection: either the bag is staged and the place stays (409 place_in_use), or the place goes and the bag is not staged (404); never a bag in a removed place"
    )
    func stagingRacesRemoval() async throws {
        try await withApp { app in
            let shop = try await Shop.make(app)
            for round in 0..<8 {
                let places = try await shop.places([("Shelf A", "shelf"), ("Shelf \(round)", "shelf")])
                let order = try await shop.order()
                let code = "\(order["number"].int!)-1"
                _ = try await shop.pack(order)
                let replies = try await SeparateConnections.race(
                    [
                        .init(
                            path: "/v1/bags/stage", json: ["bagCode": .string(code), "placeId": .string(places["Shelf \(round)"]!)],
                            token: shop.staff.token),
                        .init(
                            method: "PUT", path: "/v1/stores/\(shop.store)/staging-places",
                            json: ["places": [["name": "Shelf A", "kind": "shelf"]]], token: shop.manager.token),
                    ], port: try app.livePort)
                let (stage, removal) = (replies[0], replies[1])
                let outcome = "stage \(stage.status.code) \(stage.errorCode ?? ""), removal \(removal.status.code) \(removal.errorCode ?? "")"
                let bag = try await shop.get(order)["bags"][0]
                if stage.status == .ok {
                    #expect(removal.status == .conflict && removal.errorCode == "place_in_use", "\(outcome)")
                    #expect(bag["place"]["name"] == .string("Shelf \(round)"), "\(outcome)")
                } else {
                    #expect(stage.errorCode == "place_not_found" && removal.status == .ok, "\(outcome)")
                    #expect(bag["place"] == .null && bag["stagedAt"] == .null, "\(outcome)")
                }
                // The bag goes home, so the next round's place can be removed.
                _ = try await shop.stage(code, in: places["Shelf A"]!)
            }
        }
    }
}
