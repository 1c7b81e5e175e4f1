import Foundation
import HTTPTypes
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Staff and a manager of store B call every store-scoped operation of the contract on store
/// A's objects (issue 25): each must be refused (403) or find nothing (404), and nothing in the
/// database may change. The calls are generated from the contract and the access table, so a new
/// route is called here the day it is added; a path parameter or a body this test cannot fill
/// fails the test instead of skipping the route.
@Suite struct CrossStoreAccessTests {
    /// One operation of the contract, as its `paths:` section declares it.
    struct ContractOperation: Sendable, CustomStringConvertible {
        var id: String
        var method: HTTPRequest.Method
        var path: String
        var takesBody: Bool

        /// The `{name}` parameters of the path, in order.
        var pathParameters: [String] {
            path.split(separator: "{").dropFirst().compactMap { $0.split(separator: "}").first.map(String.init) }
        }

        var description: String { "\(id) (\(method) \(path))" }
    }

    /// Every operation in `openapi.yaml`, read line by line as `ContractRoutes` and the access
    /// table's own test read it: paths at two spaces, methods at four, their fields at six.
    static func contractOperations() -> [ContractOperation] {
        let yaml = String(decoding: OpenAPIDocument.yaml, as: UTF8.self)
        var operations: [ContractOperation] = []
        var (inPaths, path, method) = (false, "", HTTPRequest.Method?.none)
        for line in yaml.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("paths:") {
                inPaths = true
                continue
            }
            guard inPaths else { continue }
            if let first = line.first, first != " " { break }
            if line.hasPrefix("  /"), line.hasSuffix(":") {
                (path, method) = (String(line.dropFirst(2).dropLast()), nil)
            } else if line.hasPrefix("    "), !line.hasPrefix("     "), line.hasSuffix(":") {
                method = HTTPRequest.Method(line.trimmingCharacters(in: .whitespaces).dropLast().uppercased())
                    .flatMap { ["GET", "PUT", "POST", "DELETE", "PATCH"].contains($0.rawValue) ? $0 : nil }
            } else if let method, line.hasPrefix("      operationId:") {
                let id = line.dropFirst("      operationId:".count).trimmingCharacters(in: .whitespaces)
                operations.append(ContractOperation(id: id, method: method, path: path, takesBody: false))
            } else if method != nil, line.hasPrefix("      requestBody:"), !operations.isEmpty, operations.last?.path == path {
                operations[operations.count - 1].takesBody = true
            }
        }
        return operations
    }

    /// The accesses whose routes reach one store's rows.
    static let storeScoped: [Access] = [.staff, .manager, .managerOrAdmin, .storeManagerOrAdmin]

    /// Operations that answer with the caller's own rows rather than about an object named in the
    /// request (no store, order or endpoint in the path): store B's manager is answered 200 with
    /// B's list, which must not hold any of A's.
    static let callersOwnListings: Set<String> = ["listWebhooks", "listReports", "listBlocks", "listMessages"]

    /// Store A and its objects: one of each kind a store-scoped route can name.
    struct StoreA {
        var store: String
        var staff: Session
        var manager: Session
        var order: JSONValue
        var product: String
        var pickList: String
        var webhook: String
        var delivery: String
        var coupon: String
        var aisle: String
        var sale: String
        /// A published news item, and a customer's recipe shared at A (reported, its author blocked).
        var news: String
        var recipe: String
        var author: String
        /// The receipt mailed for A's order (issue 44).
        var message: String
        /// A CSV import A's manager previewed (issue 46).
        var catalogueImport: String
        /// A's staging place (issue 47); A's order has a bag (written here, as packing would).
        var place: String

        var orderID: String { order["id"].string ?? "" }

        /// The value of each path parameter a store-scoped route may have, naming A's object.
        var pathValues: [String: String] {
            [
                "storeId": store, "couponId": coupon, "orderId": orderID, "pickListId": pickList, "webhookId": webhook, "deliveryId": delivery,
                "userId": staff.userID, "productId": product, "aisleId": aisle, "saleId": sale, "newsId": news,
                "kind": "recipe", "contentId": recipe, "messageId": message, "importId": catalogueImport,
            ]
        }

        /// Every id of A's that a list answered to another store must not hold.
        var ids: [String] {
            [
                store, coupon, orderID, pickList, webhook, delivery, staff.userID, manager.userID, sale, news, recipe, author, message,
                catalogueImport, place,
            ]
        }

        /// A valid body for each store-scoped operation that takes one, naming A's objects: what
        /// A's own staff could send and be answered 2xx.
        var bodies: [String: JSONValue] {
            [
                "createStoreAccount": [
                    "email": "intruder@example.com", "name": "Intruder", "password": "long enough password", "role": "staff",
                ],
                "createPickList": ["orderIds": [.string(orderID)]],
                "recordPick": ["orderId": .string(orderID), "productId": .string(product), "quantity": 1],
                "createSubstitution": [
                    "orderId": .string(orderID), "productId": .string(product), "substituteProductId": .string(product), "quantity": 1,
                ],
                "setSubstitutionPolicy": ["defaultPreference": "none", "priceRule": "substitute_price"],
                "updateStore": ["phone": "876 000 0000"],
                "setStock": ["onHand": 5, "minSupply": 0, "expectedOnHand": 10],
                "adjustStock": ["delta": 1, "reason": "received"],
                "setStockLocation": ["aisleCode": "A1", "bay": 2, "shelf": "B"],
                "createStoreCoupon": ["code": "INTRUDER", "percentOffBasisPoints": 100],
                "setStoreMinimumAge": ["minimumAge": 25],
                "setStorePrice": ["amount": 77700, "currency": "JMD"],
                "createSale": [
                    "productId": .string(product), "price": ["amount": 1, "currency": "JMD"], "startsAt": isoFromNow(30 * 86_400),
                    "endsAt": isoFromNow(31 * 86_400),
                ],
                "setStoreCalendar": TestApp.everyDay("10:00", "12:00"),
                "setStoreRota": ["defaultPickers": 9, "hours": [["weekday": "monday", "hour": 9, "pickers": 3]]],
                "reissueReceipt": ["reason": "The customer lost their phone."],
                "transitionOrder": ["to": "packaged", "bags": ["ambient", "frozen"]],
                "setStagingPlaces": ["places": [["name": "Intruder's shelf", "kind": "shelf"]]],
                "stageBag": ["bagCode": .string("\(order["number"].int ?? 0)-1"), "placeId": .string(place)],
                "recordPayment": ["method": "cash", "amount": order["total"]],
                "recordRefund": ["amount": order["total"], "note": "Refund from another store"],
                "collectOrder": ["token": order["pickupToken"], "idChecked": true, "idCheckMethod": "seen"],
                "previewCollection": ["token": order["pickupToken"]],
                "findCollection": ["orderNumber": order["number"], "surname": "Customer"],
                "createWebhook": ["url": "https://partner.example/b", "eventTypes": ["order.placed"], "storeId": .string(store)],
                "updateWebhook": ["description": "Changed by another store", "enabled": true],
                "createNews": ["title": "Intruder's news", "bodyMarkdown": "Not ours", "published": true],
                "updateNews": ["title": "Rewritten by another store", "bodyMarkdown": "x", "published": true],
                "blockAuthor": ["userId": .string(author), "reason": "Another store's author"],
                // An image route takes bytes; refused before any body is read, so any body will do.
                "uploadNewsImage": ["image": "bytes"],
                // A CSV upload, likewise refused (403) before its body is read.
                "createCatalogueImport": ["csv": "sku,on_hand"],
            ]
        }

        /// A store with a manager and staff, a product whose minimum age the store raised, an
        /// order of it (with its pickup token) in a pick list, an aisle, a pickup calendar, and a
        /// disabled webhook endpoint with one finished delivery (disabled, so the dispatcher
        /// changes nothing while the test looks).
        static func make(_ app: TestApp) async throws -> StoreA {
            let store = try await app.createStore(code: "A-\(UInt16.random(in: 1000...9999))", name: "Store A")
            let manager = try await app.signIn(role: .manager, store: store)
            let staff = try await app.signIn(role: .staff, store: store)
            let aisle = try await app.createAisle(store: store, code: "A1", name: "Aisle one", walkOrder: 1)
            let product = try await app.createProduct(store: store, name: "Rum", aisle: aisle)
            try await expect2xx(
                app.request(.put, "/v1/stores/\(store)/products/\(product)/minimum-age", json: ["minimumAge": 18], token: manager.token),
                "set A's minimum age")
            let webhook = try await app.createWebhook(manager, url: "https://partner.example/a")
            let webhookID = try #require(webhook["id"].string)
            try await expect2xx(
                app.request(.patch, "/v1/webhooks/\(webhookID)", json: ["enabled": false], token: manager.token), "disable A's endpoint")
            let customer = try await app.registerCustomer()
            try await app.fillCart(customer, store: store, [(product, 2)])
            let checkout = try await app.checkout(customer)
            guard checkout.status == .created else { throw TestSetupError("checkout at A: \(checkout.status) \(checkout.text)") }
            let order = checkout.json
            let orderID = try #require(order["id"].string)
            let pickList = try await expect2xx(
                app.request(.post, "/v1/stores/\(store)/pick-lists", json: ["orderIds": [.string(orderID)]], token: staff.token),
                "A's pick list")
            let coupon = try await expect2xx(
                app.request(.post, "/v1/stores/\(store)/coupons", json: ["code": "ACOUPON", "percentOffBasisPoints": 500], token: manager.token),
                "A's coupon")
            try await expect2xx(app.setCalendar(store: store, by: manager, TestApp.everyDay()), "A's calendar")
            let sale = try await expect2xx(
                app.createSale(manager, store: store, product: product, amount: 500, start: 86_400, end: 2 * 86_400), "A's sale")
            let delivery = try await sql(
                """
                INSERT INTO webhook_deliveries (store_id, endpoint_id, event_id, status, attempts, last_response_code)
                SELECT $1, $2, e.id, 'failed', 7, 500 FROM events e WHERE e.store_id = $1 AND e.order_id = $3 LIMIT 1
                RETURNING id
                """, [store, webhookID, orderID], on: app.database)
            let news = try await expect2xx(
                app.request(
                    .post, "/v1/stores/\(store)/news", json: ["title": "A's news", "bodyMarkdown": "Hello", "published": true],
                    token: manager.token), "A's news")
            let author = try await app.registerCustomer()
            try await expect2xx(app.request(.put, "/v1/cart", json: ["storeId": .string(store)], token: author.token), "the author's store")
            let recipe = try await expect2xx(
                app.request(
                    .post, "/v1/recipes",
                    json: [
                        "title": "A's recipe", "bodyMarkdown": "Mix.", "servings": 2,
                        "ingredients": [["text": "Rum", "productId": .string(product)]],
                    ],
                    token: author.token), "A's recipe")
            let recipeID = try #require(recipe.json["id"].string)
            try await expect2xx(
                app.request(.post, "/v1/reports", json: ["kind": "recipe", "contentId": .string(recipeID), "reason": "spam"], token: staff.token),
                "a report of A's recipe")
            try await expect2xx(
                app.request(.post, "/v1/moderation/blocks", json: ["userId": .string(author.userID)], token: manager.token), "A blocks its author")
            let catalogueImport = try await expect2xx(
                app.request(
                    .post, "/v1/stores/\(store)/catalogue-imports", rawBody: "sku,on_hand,store_price\nNO-SUCH-SKU,4,100\n", token: manager.token,
                    headers: [.contentType: "text/csv"]), "A's catalogue import")
            let places = try await expect2xx(
                app.request(
                    .put, "/v1/stores/\(store)/staging-places", json: ["places": [["name": "Freezer", "kind": "freezer"]]],
                    token: manager.token), "A's staging place")
            _ = try await sql(
                "INSERT INTO order_bags (store_id, order_id, number, zone, code) SELECT store_id, id, 1, 'frozen', number || '-1' FROM orders WHERE id = $1",
                [orderID], on: app.database)
            return StoreA(
                store: store, staff: staff, manager: manager, order: order, product: product,
                pickList: try #require(pickList.json["id"].string), webhook: webhookID,
                delivery: try #require(delivery.first?[0], "no event of A's order to deliver"),
                coupon: try #require(coupon.json["id"].string), aisle: aisle,
                sale: try #require(sale.json["id"].string), news: try #require(news.json["id"].string), recipe: recipeID,
                author: author.userID,
                message: try #require(try await sql("SELECT id FROM messages WHERE order_id = $1", [orderID], on: app.database).first?[0]),
                catalogueImport: try #require(catalogueImport.json["id"].string),
                place: try #require(places.json["items"][0]["id"].string))
        }
    }

    @discardableResult
    static func expect2xx(_ reply: TestReply, _ what: String) throws -> TestReply {
        guard (200..<300).contains(reply.status.code) else { throw TestSetupError("\(what): \(reply.status) \(reply.text)") }
        return reply
    }

    /// Every table's rows, as one digest per table. `sessions` is left out: using a session
    /// touches its own row (when it was last seen), and B's sessions are B's.
    static func snapshot(_ app: TestApp) async throws -> [String: String] {
        // Events are numbered just after their commit: wait until A's are, so that is not a change.
        for _ in 0..<100 {
            if try await sql("SELECT count(*) FROM events WHERE sequence IS NULL", on: app.database)[0][0] == "0" { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        let tables = try await sql(
            """
            SELECT table_name FROM information_schema.tables
            WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> 'sessions'
            ORDER BY 1
            """, on: app.database
        ).compactMap { $0[0] }
        var digests: [String: String] = [:]
        for table in tables {
            let quoted = "\"" + table.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            digests[table] = try await sql(
                "SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) FROM \(quoted) t", on: app.database)[0][0]
        }
        return digests
    }

    @Test("staff and a manager of store B are refused (403) or find nothing (404) on every store-scoped operation on A's objects, changing nothing")
    func otherStoreReachesNothing() async throws {
        let operations = Self.contractOperations().filter { operation in
            AccessPolicy.operations[operation.id].map(Self.storeScoped.contains) ?? false
        }
        // The walk of the contract found the routes: every scoped operation of the access table is among them.
        let scopedInTable = Set(AccessPolicy.operations.filter { Self.storeScoped.contains($0.value) }.keys)
        #expect(Set(operations.map(\.id)) == scopedInTable)
        #expect(operations.count >= 30)

        try await withApp { app in
            let a = try await StoreA.make(app)
            let storeB = try await app.createStore(code: "B-\(UInt16.random(in: 1000...9999))", name: "Store B")
            let callers = [
                ("staff", try await app.signIn(role: .staff, store: storeB)), ("manager", try await app.signIn(role: .manager, store: storeB)),
            ]

            // Each call is filled in before any is sent: an unknown parameter or a missing body fails here.
            var calls: [(ContractOperation, String, JSONValue?)] = []
            for operation in operations {
                var path = operation.path
                let unknown = operation.pathParameters.filter { a.pathValues[$0] == nil }
                guard unknown.isEmpty else {
                    Issue.record("\(operation) has path parameters \(unknown) this test cannot fill with store A's objects: add them to pathValues")
                    continue
                }
                for name in operation.pathParameters {
                    path = path.replacingOccurrences(of: "{\(name)}", with: a.pathValues[name]!)
                }
                let body = a.bodies[operation.id]
                if operation.takesBody, body == nil {
                    Issue.record("\(operation) takes a body and has none in bodies: add a valid one naming store A's objects")
                }
                calls.append((operation, path, body))
            }

            // A's own people reach each object read (so a 404 below is the scope's, not a wrong id).
            for (operation, path, _) in calls where operation.method == .get && !path.hasSuffix("/events") {
                let own = AccessPolicy.operations[operation.id] == .staff ? a.staff : a.manager
                let reply = try await app.request(.get, path, token: own.token)
                #expect((200..<300).contains(reply.status.code), "\(operation) as A's own: \(reply.status) \(reply.text.prefix(300))")
            }

            let before = try await Self.snapshot(app)
            for (operation, path, body) in calls {
                for (role, caller) in callers {
                    let reply = try await app.request(operation.method, path, json: body, token: caller.token)
                    if Self.callersOwnListings.contains(operation.id) {
                        #expect(reply.status == .ok || reply.status == .forbidden, "\(operation) as B's \(role): \(reply.status)")
                        for id in a.ids { #expect(!reply.text.contains(id), "\(operation) as B's \(role) shows A's \(id)") }
                    } else {
                        #expect(
                            reply.status == .forbidden || reply.status == .notFound,
                            "\(operation) as B's \(role): \(reply.status) \(reply.text.prefix(300))")
                    }
                }
            }
            let after = try await Self.snapshot(app)
            let changed = before.keys.filter { before[$0] != after[$0] }.sorted()
            #expect(changed == [], "tables changed by store B's calls: \(changed)")
            #expect(!before.isEmpty)
        }
    }
}
