import Foundation
import HTTPTypes
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

@Suite("A customer's data is theirs: the export holds all of it, erasure leaves nothing personal anywhere")
struct PrivacyTests {
    /// A customer registered through the API under a name and email no one else has.
    static func uniqueCustomer(_ app: TestApp) async throws -> (Session, email: String, name: String) {
        let tag = UUID().uuidString.prefix(8).lowercased()
        let email = "zebulon.\(tag)@example.com"
        let name = "Zebulon Quartermaine \(tag)"
        let reply = try await app.request(
            .post, "/v1/auth/register",
            json: ["email": .string(email), "name": .string(name), "password": "correct horse", "passwordConfirmation": "correct horse"])
        guard reply.status == .created, let token = reply.json["token"].string, let id = reply.json["user"]["id"].string else {
            throw TestSetupError("register: \(reply.status) \(reply.text)")
        }
        return (Session(token: token, userID: id), email, name)
    }

    /// Every text and JSON column of every table in which `needle` appears (case-insensitively).
    static func foundAnywhere(_ needle: String, _ app: TestApp) async throws -> [String] {
        let columns = try await sql(
            """
            SELECT c.table_name, c.column_name FROM information_schema.columns c
              JOIN information_schema.tables t ON t.table_name = c.table_name AND t.table_schema = c.table_schema
             WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'
               AND c.data_type IN ('text', 'character varying', 'character', 'json', 'jsonb', 'ARRAY', 'bytea', 'tsvector')
            """, on: app.database)
        var found: [String] = []
        for row in columns {
            let (table, column) = (row[0]!, row[1]!)
            let count = try await sql(
                "SELECT count(*) FROM \"\(table)\" WHERE \"\(column)\"::text ILIKE '%' || $1 || '%'", [needle], on: app.database)[0][0]
            if count != "0" { found.append("\(table).\(column)") }
        }
        return found
    }

    @Test(
        "the export holds the account, sessions without tokens, the cart, favourites, every order with its history, and the user's recipes, page after page"
    )
    func export() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let (customer, email, name) = try await Self.uniqueCustomer(app)
            let product = try await app.addProduct(store: store, name: "Callaloo", onHand: 500)
            try await app.fillCart(customer, store: store, [(product, 1)])
            let order = try await app.checkout(customer).json
            try await app.collect(order, by: staff)
            _ = try await app.request(.put, "/v1/favourites/\(product)", token: customer.token)
            try await app.fillCart(customer, store: store, [(product, 2)])
            _ = try await app.shareRecipe(customer, title: "Callaloo and saltfish", [("Callaloo", product, 1)])
            // 250 more orders: the export reads them a page (100) at a time.
            for _ in 0..<250 { _ = try await app.createPendingOrder(store: store, customer: customer.userID, lines: [(product, 1)]) }

            let reply = try await app.request(.get, "/v1/me/export", token: customer.token)
            #expect(reply.status == .ok)
            #expect(reply.headers[.contentDisposition]?.hasPrefix("attachment") == true)
            let document = reply.json
            #expect(document["account"]["email"].string == email && document["account"]["name"].string == name)
            #expect(document["account"]["role"].string == "customer")
            #expect(!document["sessions"].array.isEmpty && !reply.text.contains(customer.token), "sessions without their tokens")
            #expect(document["cart"]["items"].array.first?["quantity"].int == 2)
            #expect(document["favourites"].array.count == 1)
            let orders = document["orders"].array
            #expect(orders.count == 251)
            #expect(Set(orders.compactMap { $0["id"].string }).count == 251, "no order twice across pages")
            let collected = try #require(orders.first { $0["id"] == order["id"] })
            #expect(collected["status"].string == "completed" && collected["payments"].array.count == 1)
            #expect(collected["history"].array.map { $0["to"].string }.contains("completed"))
            #expect(collected["lines"].array.first?["name"].string == "Callaloo")
            #expect(document["recipes"].array.first?["title"].string == "Callaloo and saltfish")
            #expect(document["webhookDeliveries"].array.isEmpty)
            // Its mail (issue 44): the collected order's receipt among it, every message to this address.
            let mail = document["messages"].array
            #expect(mail.contains { $0["orderId"] == order["id"] && $0["kind"].string == "order_placed" }, "\(mail)")
            #expect(mail.allSatisfy { $0["recipient"].string == email })

            let nobody = try await app.request(.get, "/v1/me/export")
            #expect(nobody.status == .unauthorized)
        }
    }

    @Test("erasure is refused while an order is open; then nothing of the customer's name or email is left in any table, the books keep a tombstone")
    func erasure() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let (customer, email, name) = try await Self.uniqueCustomer(app)
            let product = try await app.addProduct(store: store, name: "Ackee", onHand: 50)
            try await app.fillCart(customer, store: store, [(product, 1)])
            let order = try await app.checkout(customer).json
            let orderID = try #require(order["id"].string)
            try await expect200(app.pay(order, by: staff))
            try await expect200(app.transition(orderID, to: "packaged", by: staff))
            try await expect200(
                app.request(
                    .post, "/v1/orders/\(orderID)/arrival",
                    json: ["bay": "2", "vehicle": .string("Red \(name) van"), "note": .string("Call \(email)")],
                    token: customer.token))
            let recipe = try #require(try await app.shareRecipe(customer, title: "Ackee by \(name)", [("Ackee", product, 1)])["id"].string)
            _ = try await app.request(.put, "/v1/favourites/\(product)", token: customer.token)

            let open = try await app.request(.delete, "/v1/me", json: ["password": "correct horse"], token: customer.token)
            #expect(open.status == .conflict && open.errorCode == "open_orders")
            #expect(open.json["error"]["details"]["orders"].array.first?["id"].string == orderID)
            try await expect200(app.scan(order["pickupToken"].string ?? "", by: staff))

            let wrong = try await app.request(.delete, "/v1/me", json: ["password": "wrong horse"], token: customer.token)
            #expect(wrong.status == .unprocessableContent && wrong.errorCode == "wrong_password")
            let erased = try await app.request(.delete, "/v1/me", json: ["password": "correct horse"], token: customer.token)
            #expect(erased.status == .noContent, "\(erased.text)")

            // Each row of the list, then the whole database.
            let left = try await sql(
                """
                SELECT (SELECT count(*) FROM sessions WHERE user_id = $1), (SELECT count(*) FROM carts WHERE customer_id = $1),
                       (SELECT count(*) FROM favourites WHERE user_id = $1), (SELECT count(*) FROM customer_stores WHERE user_id = $1),
                       (SELECT count(*) FROM orders WHERE customer_id = $1 AND (arrival_vehicle IS NOT NULL OR arrival_note IS NOT NULL)),
                       (SELECT count(*) FROM orders WHERE customer_id = $1), (SELECT password_hash FROM users WHERE id = $1),
                       (SELECT count(*) FROM recipes WHERE author_id IS NULL AND id = $2)
                """, [customer.userID, recipe], on: app.database)
            #expect(left == [["0", "0", "0", "0", "0", "1", "!", "1"]], "sessions, cart, favourites, store, arrival gone; the order and recipe kept")
            #expect(try await Self.foundAnywhere(email, app) == [])
            #expect(try await Self.foundAnywhere(name, app) == ["recipes.title"], "only what they chose to keep: their recipe's own words")

            #expect(try await app.request(.get, "/v1/me", token: customer.token).status == .unauthorized)
            let login = try await app.request(.post, "/v1/auth/login", json: ["email": .string(email), "password": "correct horse"])
            #expect(login.status == .unauthorized)
            let kept = try await app.request(.get, "/v1/orders/\(orderID)", token: staff.token)
            #expect(kept.json["customerName"].string == "Deleted customer" && kept.json["total"] == order["total"])
            #expect(try await app.request(.get, "/v1/recipes/\(recipe)").json["author"]["name"].string == "A former customer")
            let record = try await sql(
                "SELECT reason, erased_by = user_id FROM account_erasures WHERE user_id = $1", [customer.userID], on: app.database)
            #expect(record == [["own_request", "t"]])
        }
    }

    @Test("content=delete takes recipes, comments and reviews too; the admin erases a customer on request; a manager erases a staff member who left")
    func erasureByOthers() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let manager = try await app.signIn(role: .manager, store: store)
            let staff = try await app.signIn(role: .staff, store: store)
            let admin = try await app.signInAdmin()
            let (cook, email, name) = try await Self.uniqueCustomer(app)
            let recipe = try #require(try await app.shareRecipe(cook, title: "Recipe by \(name)", [("Salt", nil, nil)])["id"].string)
            _ = try await app.request(.post, "/v1/recipes/\(recipe)/comments", json: ["bodyMarkdown": .string("Signed, \(email)")], token: cook.token)

            #expect(try await app.request(.delete, "/v1/users/\(cook.userID)?content=delete", token: manager.token).status == .forbidden)
            #expect(
                try await app.request(.delete, "/v1/users/\(staff.userID)", token: admin.token).status == .notFound,
                "staff are their manager's to erase")
            #expect(try await app.request(.delete, "/v1/users/\(cook.userID)?content=delete", token: admin.token).status == .noContent)
            #expect(try await app.request(.get, "/v1/recipes/\(recipe)").status == .notFound)
            #expect(try await Self.foundAnywhere(email, app) == [])
            #expect(try await Self.foundAnywhere(name, app) == [])
            let record = try await sql(
                "SELECT reason, erased_by, content_deleted FROM account_erasures WHERE user_id = $1", [cook.userID], on: app.database)
            #expect(record == [["admin_request", admin.userID, "t"]])

            #expect(
                try await app.request(.delete, "/v1/stores/\(store)/staff/\(manager.userID)", token: manager.token).errorCode == "cannot_erase_self")
            #expect(try await app.request(.delete, "/v1/stores/\(store)/staff/\(staff.userID)", token: manager.token).status == .noContent)
            #expect(try await app.request(.get, "/v1/me", token: staff.token).status == .unauthorized)
            let tombstone = try await sql(
                "SELECT name, email LIKE 'erased-%@erased.invalid' FROM users WHERE id = $1", [staff.userID], on: app.database)
            #expect(tombstone == [["Former staff member", "t"]])
        }
    }

    private func expect200(_ reply: TestReply) throws {
        guard reply.status.code < 300 else { throw TestSetupError("\(reply.status) \(reply.text)") }
    }
}

@Suite("My data in the console: the same download, and erasure with the password")
struct ConsoleAccountTests {
    @Test("a customer downloads their data from /account/export and erases their account with the form; the cookie is cleared and the account gone")
    func consoleAccount() async throws {
        try await withApp { app in
            let (user, session) = try await app.customerAccount()
            let cookie = try await app.consoleCookie(user)
            let download = try await app.form(.get, "/account/export", cookie: cookie)
            #expect(download.status == .ok && download.headers[.contentDisposition]?.hasPrefix("attachment") == true)
            #expect(download.json["account"]["email"].string == user.email)

            let csrf = try await app.csrfToken(on: "/account", cookie: cookie)
            let wrong = try await app.form(.post, "/account/erase", ["_csrf": csrf, "password": "not it at all"], cookie: cookie)
            #expect(wrong.status == .unprocessableContent && wrong.text.contains("password"))
            let erased = try await app.form(.post, "/account/erase", ["_csrf": csrf, "password": user.password], cookie: cookie)
            #expect(erased.status == .ok && erased.text.contains("Account erased"))
            #expect(erased.headers[.setCookie]?.contains("Max-Age=0") == true || erased.headers[.setCookie]?.contains("Expires") == true)
            #expect(try await app.request(.get, "/v1/me", token: session.token).status == .unauthorized)
            #expect(try await sql("SELECT count(*) FROM users WHERE email = $1", [user.email], on: app.database)[0][0] == "0")
        }
    }
}

@Suite("Retention: orders past FULFILMENT_RETENTION_DAYS are anonymised by the sweep; newer ones stay with their customer")
struct RetentionTests {
    @Test(
        "a collected order older than the retention leaves its customer, its arrival and its events' name; a recent one does not; sweeping again changes nothing"
    )
    func retention() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let (customer, _, name) = try await PrivacyTests.uniqueCustomer(app)
            let product = try await app.addProduct(store: store, name: "Sorrel", onHand: 50)
            var orders: [String] = []
            for _ in 0..<2 {
                try await app.fillCart(customer, store: store, [(product, 1)])
                let order = try await app.checkout(customer).json
                try await app.collect(order, by: staff)
                orders.append(order["id"].string ?? "")
            }
            try await sql(
                "UPDATE orders SET collected_at = now() - interval '40 days', arrival_vehicle = 'Blue van' WHERE id = $1", [orders[0]],
                on: app.database)

            let database = try FulfilmentDomain.Database(connection: app.database, logger: .init(label: "test"))
            let retired = try await withRunning(database) {
                try await OrderRetention(database: database, days: 30).sweep(logger: .init(label: "test"))
            }
            #expect(retired == 1)
            let mine = try await app.request(.get, "/v1/orders", token: customer.token).json["items"].array.compactMap { $0["id"].string }
            #expect(mine == [orders[1]], "the old order left the customer's history")
            let old = try await app.request(.get, "/v1/orders/\(orders[0])", token: staff.token).json
            #expect(old["customerName"].string == "Deleted customer" && old["status"].string == "completed")
            let leftovers = try await sql(
                "SELECT count(*) FROM events WHERE order_id = $1 AND data::text LIKE '%' || $2 || '%'", [orders[0], name], on: app.database)
            #expect(leftovers == [["0"]])
            #expect(try await sql("SELECT arrival_vehicle FROM orders WHERE id = $1", [orders[0]], on: app.database) == [[nil]])
            let later = try FulfilmentDomain.Database(connection: app.database, logger: .init(label: "test"))
            let again = try await withRunning(later) { try await OrderRetention(database: later, days: 30).sweep(logger: .init(label: "test")) }
            #expect(again == 0)
        }
    }
}
