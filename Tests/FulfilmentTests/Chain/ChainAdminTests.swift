import Foundation
import HTTPTypes
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Issue 13: the chain's admin opens stores and lays out their aisles; managers keep their own
/// store and nothing else.
@Suite("Chain admin: stores and their aisles")
struct ChainAdminTests {
    @Test("an admin opens a store and edits it; codes are unique, fields checked, nobody else may")
    func openAndEditStore() async throws {
        try await withApp { app in
            let admin = try await app.signInAdmin()
            let me = try await app.request(.get, "/v1/me", token: admin.token)
            #expect(me.json["role"].string == "admin")
            #expect(!me.json.has("storeId"))

            let opened = try await app.request(
                .post, "/v1/stores", json: ["code": "MB-01", "name": "Montego Bay", "address": "1 Gloucester Ave", "currency": "JMD"],
                token: admin.token)
            #expect(opened.status == .created, "\(opened.text)")
            let store = try #require(opened.json["id"].string)
            #expect(opened.json["code"].string == "MB-01")
            #expect(try await app.request(.get, "/v1/stores/\(store)").json["name"].string == "Montego Bay")

            let twice = try await app.request(
                .post, "/v1/stores", json: ["code": "MB-01", "name": "Again", "currency": "JMD"], token: admin.token)
            #expect(twice.status == .conflict)
            #expect(twice.errorCode == "store_code_taken")
            let badCode = try await app.request(
                .post, "/v1/stores", json: ["code": "mb 02", "name": "X", "currency": "JMD"], token: admin.token)
            #expect(badCode.status == .unprocessableContent)
            let badCurrency = try await app.request(
                .post, "/v1/stores", json: ["code": "MB-02", "name": "X", "currency": "dollars"], token: admin.token)
            #expect(badCurrency.status == .unprocessableContent)

            let renamed = try await app.request(
                .patch, "/v1/stores/\(store)", json: ["name": "Montego Bay — Hip Strip"], token: admin.token)
            #expect(renamed.status == .ok)
            #expect(renamed.json["name"].string == "Montego Bay — Hip Strip")
            #expect(renamed.json["address"].string == "1 Gloucester Ave")
            let other = try await app.createStore(code: "KGN-9")
            #expect(
                try await app.request(.patch, "/v1/stores/\(store)", json: ["code": "KGN-9"], token: admin.token).errorCode
                    == "store_code_taken")
            #expect(try await app.request(.patch, "/v1/stores/\(UUID())", json: ["name": "Nowhere"], token: admin.token).status == .notFound)

            // A manager keeps their own store, not the chain: no opening or renaming stores.
            let manager = try await app.signIn(role: .manager, store: other)
            let customer = try await app.registerCustomer()
            for token in [manager.token, customer.token] {
                #expect(
                    try await app.request(
                        .post, "/v1/stores", json: ["code": "MB-03", "name": "X", "currency": "JMD"], token: token
                    ).status == .forbidden)
                #expect(try await app.request(.patch, "/v1/stores/\(other)", json: ["name": "Mine"], token: token).status == .forbidden)
            }
            #expect(
                try await app.request(.post, "/v1/stores", json: ["code": "MB-03", "name": "X", "currency": "JMD"]).status
                    == .unauthorized)
        }
    }

    @Test("an admin lays out aisles: code and walk order unique in the store; an aisle in use is a 409, not a 500")
    func aisles() async throws {
        try await withApp { app in
            let admin = try await app.signInAdmin()
            let store = try await app.createStore()
            let dairy = try await app.request(
                .post, "/v1/stores/\(store)/aisles", json: ["code": "6", "name": "Dairy", "walkOrder": 6, "zone": "chilled"],
                token: admin.token)
            #expect(dairy.status == .created, "\(dairy.text)")
            let dairyID = try #require(dairy.json["id"].string)
            let bakery = try await app.request(
                .post, "/v1/stores/\(store)/aisles", json: ["code": "1", "name": "Bakery", "walkOrder": 1], token: admin.token)
            #expect(bakery.json["zone"].string == "ambient")
            let listed = try await app.request(.get, "/v1/stores/\(store)/aisles")
            #expect(listed.json["items"].array.map { $0["name"].string } == ["Bakery", "Dairy"])

            let sameCode = try await app.request(
                .post, "/v1/stores/\(store)/aisles", json: ["code": "6", "name": "Frozen", "walkOrder": 9], token: admin.token)
            #expect(sameCode.errorCode == "aisle_code_taken")
            let sameWalk = try await app.request(
                .post, "/v1/stores/\(store)/aisles", json: ["code": "9", "name": "Frozen", "walkOrder": 6], token: admin.token)
            #expect(sameWalk.errorCode == "walk_order_taken")
            let badZone = try await app.request(
                .post, "/v1/stores/\(store)/aisles", json: ["code": "9", "name": "Frozen", "walkOrder": 9, "zone": "tropical"],
                token: admin.token)
            #expect(badZone.status == .unprocessableContent)
            let farWalk = try await app.request(
                .post, "/v1/stores/\(store)/aisles", json: ["code": "9", "name": "Frozen", "walkOrder": 10001], token: admin.token)
            #expect(farWalk.status == .unprocessableContent)
            #expect(
                try await app.request(
                    .post, "/v1/stores/\(UUID())/aisles", json: ["code": "9", "name": "Frozen", "walkOrder": 9], token: admin.token
                ).status
                    == .notFound)

            let moved = try await app.request(
                .patch, "/v1/stores/\(store)/aisles/\(dairyID)", json: ["walkOrder": 0, "name": "Dairy & Eggs"], token: admin.token)
            #expect(moved.status == .ok)
            #expect(moved.json["walkOrder"].int == 0)
            #expect(moved.json["code"].string == "6")
            #expect(try await app.request(.get, "/v1/stores/\(store)/aisles").json["items"][0]["name"].string == "Dairy & Eggs")
            // Another store's aisle is not reached through this store.
            let elsewhere = try await app.createStore()
            #expect(
                try await app.request(
                    .patch, "/v1/stores/\(elsewhere)/aisles/\(dairyID)", json: ["name": "X"], token: admin.token
                ).status == .notFound)

            // Milk is placed in the dairy aisle: the aisle cannot go until it moves.
            let manager = try await app.signIn(role: .manager, store: store)
            let milk = try await app.addProduct(store: store, name: "Milk")
            #expect(
                try await app.request(
                    .put, "/v1/stores/\(store)/stock/\(milk)/location", json: ["aisleCode": "6", "bay": 2], token: manager.token
                ).status == .ok)
            let inUse = try await app.request(.delete, "/v1/stores/\(store)/aisles/\(dairyID)", token: admin.token)
            #expect(inUse.status == .conflict)
            #expect(inUse.errorCode == "aisle_in_use")
            #expect(inUse.json["error"]["details"]["products"].int == 1)
            #expect(try await app.request(.get, "/v1/stores/\(store)/aisles").json["items"].array.count == 2)
            #expect(try await app.request(.delete, "/v1/stores/\(store)/stock/\(milk)/location", token: manager.token).status == .ok)
            #expect(try await app.request(.delete, "/v1/stores/\(store)/aisles/\(dairyID)", token: admin.token).status == .noContent)
            #expect(try await app.request(.delete, "/v1/stores/\(store)/aisles/\(dairyID)", token: admin.token).status == .notFound)

            // Aisles are the chain's layout: the store's manager does not change them.
            let bakeryID = try #require(bakery.json["id"].string)
            #expect(
                try await app.request(
                    .post, "/v1/stores/\(store)/aisles", json: ["code": "7", "name": "X", "walkOrder": 7], token: manager.token
                ).status
                    == .forbidden)
            #expect(try await app.request(.delete, "/v1/stores/\(store)/aisles/\(bakeryID)", token: manager.token).status == .forbidden)
        }
    }

    @Test("an admin works in no store: store-scoped staff and manager routes refuse them")
    func adminIsNoStoreWorker() async throws {
        try await withApp { app in
            let admin = try await app.signInAdmin()
            let store = try await app.createStore()
            let product = try await app.addProduct(store: store)
            for (method, path) in [
                (HTTPRequest.Method.get, "/v1/stores/\(store)/stock"), (.get, "/v1/stores/\(store)/orders"),
                (.get, "/v1/stores/\(store)/pick-lists"), (.get, "/v1/stores/\(store)/stock/\(product)/movements"),
            ] {
                #expect(try await app.request(method, path, token: admin.token).status == .forbidden, "\(path)")
            }
            let staff = try await app.request(
                .post, "/v1/stores/\(store)/staff",
                json: ["email": "new@example.com", "name": "New", "password": "long enough", "role": "staff"], token: admin.token)
            #expect(staff.status == .forbidden)
            // The public face of every store is theirs like anyone's.
            #expect(try await app.request(.get, "/v1/stores/\(store)/aisles", token: admin.token).status == .ok)
        }
    }

    @Test("an admin signing in to the console lands on the chain's stores, and store pages say it is not for them")
    func console() async throws {
        try await withApp { app in
            let store = try await app.createStore(code: "CONS-1", name: "Console Store")
            _ = try await app.createAisle(store: store, code: "3", name: "Canned goods", walkOrder: 3)
            let email = "console-admin@example.com"
            try await app.withDatabase { database in
                _ = try await Accounts(database: database, hasher: PasswordHasher(cost: 4)).createAdmin(
                    email: email, name: "Admin", password: "console password", logger: .init(label: "test"))
            }
            let signIn = try await app.form(.post, "/signin", ["email": email, "password": "console password"])
            #expect(signIn.status == .seeOther)
            #expect(signIn.headers[.location] == "/console/stores")
            let cookie = try #require(signIn.headers[.setCookie]?.split(separator: ";").first.map(String.init))
            let page = try await app.form(.get, "/console/stores", cookie: cookie)
            #expect(page.status == .ok)
            #expect(page.text.contains("Console Store"))
            let storePage = try await app.form(.get, "/console/stores/\(store)", cookie: cookie)
            #expect(storePage.status == .ok && storePage.text.contains("Canned goods"))
            #expect(try await app.form(.get, "/", cookie: cookie).headers[.location] == "/console/stores")
            let desk = try await app.form(.get, "/console/desk", cookie: cookie)
            #expect(desk.status == .forbidden)
            #expect(desk.text.contains("not allowed"))
            // Staff do not see the chain's page.
            let staff = try await app.storeAccount(.staff, store: store)
            #expect(try await app.form(.get, "/console/stores", cookie: try await app.consoleCookie(staff)).status == .forbidden)
        }
    }
}
