import Foundation
import HTTPTypes
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

@Suite("Catalogue: the chain's admin keeps the catalogue; a manager keeps stock levels and the aisle map")
struct CatalogueManagerTests {
    @Test("customers get 403 and strangers 401 on every manager route")
    func customersAreRefused() async throws {
        try await withApp { app in
            let store = try await app.catalogueStore()
            let product = try await app.addProduct("Bread", at: store)
            let customer = try await app.registerCustomer()
            let calls: [(HTTPRequest.Method, String, JSONValue?)] = [
                (.post, "/v1/products", ["sku": "X-1", "name": "X", "price": ["amount": 1, "currency": "JMD"]]),
                (.patch, "/v1/products/\(product)", ["name": "Y"]),
                (.post, "/v1/products/\(product)/discontinue", nil),
                (.put, "/v1/stores/\(store.id)/stock/\(product)", ["onHand": 1, "minSupply": 0, "expectedOnHand": 0]),
                (.put, "/v1/stores/\(store.id)/stock/\(product)/location", ["aisleCode": "6"]),
                (.delete, "/v1/stores/\(store.id)/stock/\(product)/location", nil),
                (.get, "/v1/stores/\(store.id)/stock?low=true", nil),
            ]
            for (method, path, body) in calls {
                let asCustomer = try await app.request(method, path, json: body, token: customer.token)
                #expect(asCustomer.status == .forbidden, "\(method) \(path)")
                let anonymous = try await app.request(method, path, json: body)
                #expect(anonymous.status == .unauthorized, "\(method) \(path)")
            }
            let image = try await app.upload("/v1/products/\(product)/image", bytes: tinyPNG, contentType: "image/png", token: customer.token)
            #expect(image.status == .forbidden)
            #expect(try await app.request(.get, "/v1/products/\(product)").json["name"].string == "Bread")
        }
    }

    @Test("a manager of another store gets 403 on this store's stock")
    func otherStoresManager() async throws {
        try await withApp { app in
            let mine = try await app.catalogueStore()
            let theirs = try await app.catalogueStore()
            let product = try await app.addProduct("Bread", at: mine, onHand: 5)
            let stranger = try await app.signIn(role: .manager, store: theirs.id)
            let set = try await app.request(
                .put, "/v1/stores/\(mine.id)/stock/\(product)", json: ["onHand": 0, "minSupply": 0, "expectedOnHand": 5], token: stranger.token)
            #expect(set.status == .forbidden)
            #expect(try await app.request(.get, "/v1/stores/\(mine.id)/stock", token: stranger.token).status == .forbidden)
            let staff = try await app.signIn(role: .staff, store: mine.id)
            #expect(try await app.request(.get, "/v1/stores/\(mine.id)/stock", token: staff.token).status == .forbidden)
            #expect(try await app.sqlOnHand(store: mine.id, product: product) == 5)
        }
    }

    @Test("stock can't go negative (422) or below what open orders reserve (409): a clear error, nothing changed")
    func stockRules() async throws {
        try await withApp { app in
            let store = try await app.catalogueStore()
            let product = try await app.addProduct("Bread", at: store, onHand: 10, reserved: 6)
            let manager = try await app.signIn(role: .manager, store: store.id)
            let path = "/v1/stores/\(store.id)/stock/\(product)"
            let negative = try await app.request(.put, path, json: ["onHand": -1, "minSupply": 0, "expectedOnHand": 10], token: manager.token)
            #expect(negative.status == .unprocessableContent)
            #expect(negative.json["error"]["details"]["field"].string == "onHand")
            let negativeMin = try await app.request(.put, path, json: ["onHand": 8, "minSupply": -2, "expectedOnHand": 10], token: manager.token)
            #expect(negativeMin.status == .unprocessableContent)
            let belowReserved = try await app.request(.put, path, json: ["onHand": 5, "minSupply": 0, "expectedOnHand": 10], token: manager.token)
            #expect(belowReserved.status == .conflict)
            #expect(belowReserved.errorCode == "stock_below_reserved")
            #expect(belowReserved.json["error"]["details"]["reserved"].int == 6)
            #expect(try await app.sqlOnHand(store: store.id, product: product) == 10)
            let ok = try await app.request(.put, path, json: ["onHand": 6, "minSupply": 8, "expectedOnHand": 10], token: manager.token)
            #expect(ok.status == .ok)
            #expect(ok.json["available"].int == 0)
            #expect(ok.json["reserved"].int == 6)
            #expect(ok.json["low"].bool == true)
        }
    }

    @Test("the database itself refuses reserved above on hand (the CHECK backs the rule)")
    func checkConstraint() async throws {
        try await withApp { app in
            let store = try await app.catalogueStore()
            let product = try await app.addProduct("Bread", at: store, onHand: 2)
            let error = await #expect(throws: (any Error).self) {
                try await sql("UPDATE stock SET reserved = 3 WHERE product_id = $1", [product], on: app.database)
            }
            #expect(String(describing: error).contains("stock_reserved_within_on_hand"))
        }
    }

    @Test("one call moves a product to another aisle; an unknown aisle is 422; clearing leaves it unlocated")
    func moveProduct() async throws {
        try await withApp { app in
            let store = try await app.catalogueStore()
            let product = try await app.addProduct("Ice Cream", at: store, aisle: "6", bay: 1, shelf: "A")
            let manager = try await app.signIn(role: .manager, store: store.id)
            let path = "/v1/stores/\(store.id)/stock/\(product)/location"
            let moved = try await app.request(.put, path, json: ["aisleCode": "9", "bay": 4, "shelf": "C"], token: manager.token)
            #expect(moved.status == .ok)
            #expect(moved.json["location"]["aisleName"].string == "Frozen foods")
            let located = try await app.request(.get, "/v1/stores/\(store.id)/locate?q=ice%20cream")
            #expect(located.json["items"][0]["place"].string == "Aisle 9 (Frozen foods), bay 4, shelf C")
            let unknown = try await app.request(.put, path, json: ["aisleCode": "42"], token: manager.token)
            #expect(unknown.status == .unprocessableContent)
            #expect(unknown.errorCode == "unknown_aisle")
            let badBay = try await app.request(.put, path, json: ["aisleCode": "9", "bay": 0], token: manager.token)
            #expect(badBay.status == .unprocessableContent)
            let cleared = try await app.request(.delete, path, token: manager.token)
            #expect(cleared.status == .ok)
            #expect(cleared.json["location"] == .null)
            let after = try await app.request(.get, "/v1/stores/\(store.id)/locate?q=ice%20cream")
            #expect(after.json["items"][0]["located"].bool == false)
        }
    }

    @Test("the reorder report lists products at or below minimum supply, with what open orders reserve")
    func reorderReport() async throws {
        try await withApp { app in
            let store = try await app.catalogueStore()
            try await app.addProduct("Flour", at: store, onHand: 4, reserved: 3, minSupply: 10)
            try await app.addProduct("Sugar", at: store, onHand: 10, minSupply: 10)
            try await app.addProduct("Salt", at: store, onHand: 11, minSupply: 10)
            let manager = try await app.signIn(role: .manager, store: store.id)
            let low = try await app.request(.get, "/v1/stores/\(store.id)/stock?low=true", token: manager.token)
            #expect(low.status == .ok)
            #expect(low.json["items"].array.map { $0["name"].string } == ["Flour", "Sugar"])
            #expect(low.json["items"][0]["reserved"].int == 3)
            #expect(low.json["items"][0]["available"].int == 1)
            let all = try await app.request(.get, "/v1/stores/\(store.id)/stock", token: manager.token)
            #expect(all.json["items"].array.count == 3)
        }
    }

    @Test("the chain's admin creates, edits and discontinues products (a manager may not); bad barcodes are 422, taken SKUs 409")
    func productLifecycle() async throws {
        try await withApp { app in
            let store = try await app.catalogueStore()
            let manager = try await app.signIn(role: .manager, store: store.id)
            let admin = try await app.signInAdmin()
            let body: JSONValue = [
                "sku": "QC-9001", "barcode": "4006381333931", "name": "Blue Mountain Coffee 200g", "brand": "Jablum",
                "category": "Beverages", "price": ["amount": 250000, "currency": "JMD"],
            ]
            // The catalogue is the chain's: a store's manager no longer edits it.
            #expect(try await app.request(.post, "/v1/products", json: body, token: manager.token).status == .forbidden)
            let created = try await app.request(.post, "/v1/products", json: body, token: admin.token)
            #expect(created.status == .created, "\(created.text)")
            let id = try #require(created.json["id"].string)
            #expect(created.json["discontinued"].bool == false)
            #expect(created.json["size"].string == "", "no pack size given is none")
            let again = try await app.request(.post, "/v1/products", json: body, token: admin.token)
            #expect(again.status == .conflict)
            #expect(again.errorCode == "sku_taken")
            // A SKU over 64 code points as sent is refused, even when trimming its spaces would fit it
            // (the contract counts what is sent; found by the contract fuzz).
            if case .object(var object) = body {
                object["sku"] = .string(" \t" + String(repeating: "\u{1F3FB}", count: 63))
                let padded = try await app.request(.post, "/v1/products", json: .object(object), token: admin.token)
                #expect(padded.status == .unprocessableContent && padded.json["error"]["details"]["field"].string == "sku")
            }
            var badBarcode = body
            if case .object(var object) = badBarcode {
                object["sku"] = "QC-9002"
                object["barcode"] = "4006381333932"
                badBarcode = .object(object)
            }
            let invalid = try await app.request(.post, "/v1/products", json: badBarcode, token: admin.token)
            #expect(invalid.status == .unprocessableContent)
            #expect(invalid.errorCode == "invalid_barcode")
            let negative = try await app.request(
                .post, "/v1/products", json: ["sku": "QC-9003", "name": "X", "price": ["amount": -1, "currency": "JMD"]],
                token: admin.token)
            #expect(negative.status == .unprocessableContent)
            #expect(try await app.request(.patch, "/v1/products/\(id)", json: ["name": "X"], token: manager.token).status == .forbidden)
            let edited = try await app.request(
                .patch, "/v1/products/\(id)", json: ["price": ["amount": 240000, "currency": "JMD"], "barcode": ""], token: admin.token)
            #expect(edited.status == .ok)
            #expect(edited.json["price"]["amount"].int == 240000)
            #expect(edited.json["barcode"] == .null)
            #expect(edited.json["name"].string == "Blue Mountain Coffee 200g")
            // The pack size, as the shelf label says it; over 40 characters is refused, nothing changed.
            let sized = try await app.request(.patch, "/v1/products/\(id)", json: ["size": " 200 g "], token: admin.token)
            #expect(sized.json["size"].string == "200 g")
            let tooLong = try await app.request(
                .patch, "/v1/products/\(id)", json: ["size": .string(String(repeating: "g", count: 41))], token: admin.token)
            #expect(tooLong.status == .unprocessableContent && tooLong.json["error"]["details"]["field"].string == "size")
            #expect(try await app.request(.get, "/v1/products/\(id)").json["size"].string == "200 g")
            #expect(try await app.names("/v1/products?q=jablum") == ["Blue Mountain Coffee 200g"])
            let gone = try await app.request(.post, "/v1/products/\(id)/discontinue", token: admin.token)
            #expect(gone.json["discontinued"].bool == true)
            #expect(try await app.names("/v1/products?q=jablum") == [])
            #expect(try await app.request(.post, "/v1/products/\(UUID())/discontinue", token: admin.token).status == .notFound)
        }
    }

    @Test("images: a fake PNG is 415, a JPEG declared PNG 422, over 2 MiB 413; a real one is served back")
    func images() async throws {
        try await withApp { app in
            let store = try await app.catalogueStore()
            let product = try await app.addProduct("Bread", at: store)
            let admin = try await app.signInAdmin()
            let path = "/v1/products/\(product)/image"
            let fake = try await app.upload(path, bytes: Array("<svg>not a png</svg>".utf8), contentType: "image/png", token: admin.token)
            #expect(fake.status == .unsupportedMediaType)
            #expect(fake.errorCode == "unsupported_image")
            let mismatch = try await app.upload(path, bytes: tinyJPEG, contentType: "image/png", token: admin.token)
            #expect(mismatch.status == .unprocessableContent)
            #expect(mismatch.errorCode == "image_type_mismatch")
            let huge = try await app.upload(
                path, bytes: tinyPNG + [UInt8](repeating: 0, count: 2 * 1024 * 1024), contentType: "image/png",
                token: admin.token)
            #expect(huge.status == .contentTooLarge)
            #expect(huge.errorCode == "image_too_large")
            #expect(try await app.request(.get, path).status == .notFound)
            let stored = try await app.upload(path, bytes: tinyPNG, contentType: "image/png", token: admin.token)
            #expect(stored.status == .ok)
            #expect(stored.json["imageUrl"].string == path)
            let served = try await app.request(.get, path)
            #expect(served.status == .ok)
            #expect(served.headers[.contentType] == "image/png")
            #expect(Array(served.body) == tinyPNG)
            let jpeg = try await app.upload(path, bytes: tinyJPEG, contentType: "application/octet-stream", token: admin.token)
            #expect(jpeg.status == .ok)
            #expect(try await app.request(.get, path).headers[.contentType] == "image/jpeg")
        }
    }
}

extension TestApp {
    func sqlOnHand(store: String, product: String) async throws -> Int? {
        let rows = try await sql(
            "SELECT on_hand FROM stock WHERE store_id = $1 AND product_id = $2", [store, product], on: database)
        guard let value = rows.first?.first ?? nil else { return nil }
        return Int(value)
    }
}
