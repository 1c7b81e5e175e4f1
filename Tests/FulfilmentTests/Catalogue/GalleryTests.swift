import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// The chain's admin keeps each product's gallery and what the shop says about each category
/// (issue 45), through the API the console and the shop's pages stand on.
@Suite("A product's gallery and a category's words, kept by the chain's admin")
struct GalleryTests {
    /// Distinct PNGs: a real 1×1 image with `n` trailing bytes after its end.
    static func picture(_ n: Int) -> [UInt8] { tinyPNG + [UInt8](repeating: UInt8(n), count: n) }

    /// The gallery as `getProduct` shows it: (position, altText) in order.
    static func gallery(_ app: TestApp, _ product: String) async throws -> [String] {
        try await app.request(.get, "/v1/products/\(product)").json["images"].array.map {
            "\($0["position"].int ?? -1):\($0["altText"].string ?? "?")"
        }
    }

    /// Which picture is at `position` (the `n` it was made with), nil when none.
    static func pictureNumber(_ app: TestApp, _ product: String, _ position: Int) async throws -> Int? {
        let reply = try await app.request(.get, "/v1/products/\(product)/images/\(position)")
        guard reply.status == .ok else { return nil }
        return reply.body.count - tinyPNG.count
    }

    @Test("images go in order with their words, move, and come out with the others closing up; a gap, a long text or a stranger is refused")
    func gallery() async throws {
        try await withApp { app in
            let store = try await app.catalogueStore()
            let product = try await app.addProduct("Ackee", at: store)
            let admin = try await app.signInAdmin()
            let base = "/v1/products/\(product)/images"
            for (position, words) in [(0, "The tin, front"), (1, "The tin, back"), (2, "Ackee and saltfish, served")] {
                let placed = try await app.upload(
                    "\(base)/\(position)?altText=\(q(words))", bytes: Self.picture(position + 1), contentType: "image/png", token: admin.token)
                #expect(placed.status == .ok, "\(placed.text)")
            }
            #expect(try await Self.gallery(app, product) == ["0:The tin, front", "1:The tin, back", "2:Ackee and saltfish, served"])
            #expect(try await Self.pictureNumber(app, product, 1) == 2)
            // The first is the one listings show.
            #expect(try await app.request(.get, "/v1/products/\(product)/image").body.count == tinyPNG.count + 1)

            // A gap is refused and says where the next one goes.
            let gap = try await app.upload("\(base)/4", bytes: Self.picture(9), contentType: "image/png", token: admin.token)
            #expect(gap.status == .unprocessableContent && gap.errorCode == "image_position" && gap.json["error"]["details"]["next"].int == 3)
            // Replaced without words: it keeps the ones it had.
            #expect(try await app.upload("\(base)/1", bytes: Self.picture(7), contentType: "image/png", token: admin.token).status == .ok)
            #expect(try await Self.pictureNumber(app, product, 1) == 7)
            #expect(try await Self.gallery(app, product)[1] == "1:The tin, back")

            // The served dish becomes the first; the others follow in their order.
            let moved = try await app.request(.patch, "\(base)/2", json: ["position": 0], token: admin.token)
            #expect(moved.status == .ok, "\(moved.text)")
            #expect(try await Self.gallery(app, product) == ["0:Ackee and saltfish, served", "1:The tin, front", "2:The tin, back"])
            #expect(try await app.request(.get, "/v1/products/\(product)/image").body.count == tinyPNG.count + 3)
            // Past the last is last; words alone change the words.
            _ = try await app.request(.patch, "\(base)/0", json: ["position": 9, "altText": "Served with fried dumpling"], token: admin.token)
            #expect(try await Self.gallery(app, product) == ["0:The tin, front", "1:The tin, back", "2:Served with fried dumpling"])

            // Out with the first: the rest move up.
            let removed = try await app.request(.delete, "\(base)/0", token: admin.token)
            #expect(removed.status == .ok && removed.json["images"].array.count == 2)
            #expect(try await Self.gallery(app, product) == ["0:The tin, back", "1:Served with fried dumpling"])
            #expect(try await Self.pictureNumber(app, product, 0) == 7)
            #expect(try await Self.pictureNumber(app, product, 2) == nil)

            // What is refused changes nothing.
            let before = try await Self.gallery(app, product)
            let long = String(repeating: "नी", count: 151)  // 302 code points
            let refusals: [(TestReply, Int, String?)] = [
                (
                    try await app.upload("\(base)/1?altText=\(q(long))", bytes: Self.picture(5), contentType: "image/png", token: admin.token), 422,
                    "invalid_field"
                ),
                (
                    try await app.upload("\(base)/1?altText=a%00b", bytes: Self.picture(5), contentType: "image/png", token: admin.token), 422,
                    "invalid_field"
                ),
                (try await app.request(.patch, "\(base)/5", json: ["altText": "x"], token: admin.token), 404, "not_found"),
                (try await app.request(.patch, "\(base)/0", json: ["position": 10], token: admin.token), 422, nil),
                (try await app.request(.patch, "\(base)/0", json: ["position": -1], token: admin.token), 422, nil),
                (try await app.request(.delete, "\(base)/7", token: admin.token), 404, "not_found"),
                (try await app.request(.delete, "/v1/products/\(UUID())/images/0", token: admin.token), 404, "not_found"),
                (
                    try await app.upload("/v1/products/\(UUID())/images/0", bytes: Self.picture(5), contentType: "image/png", token: admin.token),
                    404, "not_found"
                ),
            ]
            for (reply, status, code) in refusals {
                #expect(reply.status.code == status, "\(reply.status) \(reply.text)")
                if let code { #expect(reply.errorCode == code, "\(reply.text)") }
            }
            // Only the chain's admin keeps the catalogue.
            let manager = try await app.signIn(role: .manager, store: store.id)
            let customer = try await app.registerCustomer()
            for token in [manager.token, customer.token] {
                #expect(try await app.request(.delete, "\(base)/0", token: token).status == .forbidden)
                #expect(try await app.request(.patch, "\(base)/0", json: ["altText": "x"], token: token).status == .forbidden)
                #expect(try await app.upload("\(base)/0", bytes: Self.picture(5), contentType: "image/png", token: token).status == .forbidden)
            }
            #expect(try await app.request(.delete, "\(base)/0").status == .unauthorized)
            #expect(try await Self.gallery(app, product) == before)
        }
    }

    @Test(
        "a category's words and picture: written by the admin, shown in the listing and the shop; a product with no image, a long text or a manager refused"
    )
    func categoryDetails() async throws {
        try await withApp { app in
            let store = try await app.catalogueStore()
            let ackee = try await app.addProduct("Ackee", category: "Canned & tinned", at: store)
            let plain = try await app.addProduct("Plain tin", category: "Canned & tinned", at: store)
            let admin = try await app.signInAdmin()
            #expect(try await app.upload("/v1/products/\(ackee)/image", bytes: tinyPNG, contentType: "image/png", token: admin.token).status == .ok)
            let path = "/v1/categories/\(q("Canned & tinned"))"
            let written = try await app.request(
                .put, path, json: ["description": "Tins for the cupboard.", "imageProductId": .string(ackee)], token: admin.token)
            #expect(written.status == .ok, "\(written.text)")
            #expect(written.json["productCount"].int == 2 && written.json["imageUrl"].string == "/v1/products/\(ackee)/image")
            let listed = try await app.request(.get, "/v1/categories?storeId=\(store.id)").json["items"].array
            #expect(listed.first?["description"].string == "Tins for the cupboard.")
            let shop = try await app.form(.get, "/shop?category=\(q("Canned & tinned"))", cookie: "fulfilment_store=\(store.id)")
            #expect(shop.text.contains("Tins for the cupboard."))

            // A category no product has yet may have its words ready.
            let early = try await app.request(.put, "/v1/categories/Baking", json: ["description": "Flour and more."], token: admin.token)
            #expect(early.status == .ok && early.json["productCount"].int == 0)

            for (body, status, code) in [
                (["description": "x", "imageProductId": .string(plain)], 409, "no_image"),
                (["description": "x", "imageProductId": .string(UUID().uuidString)], 404, "not_found"),
                (["description": "x", "imageProductId": "not-a-product"], 422, "invalid_field"),
                (["description": .string(String(repeating: "नी", count: 501))], 422, "invalid_field"),
            ] as [([String: JSONValue], Int, String)] {
                let refused = try await app.request(.put, path, json: .object(body), token: admin.token)
                #expect(refused.status.code == status && refused.errorCode == code, "\(refused.text)")
            }
            // Null, or left out: no picture.
            let unpictured = try await app.request(
                .put, "/v1/categories/Baking", json: ["description": "Flour.", "imageProductId": .null], token: admin.token)
            #expect(unpictured.status == .ok && unpictured.json["imageUrl"] == .null, "\(unpictured.text)")
            let tooLong = try await app.request(
                .put, "/v1/categories/\(String(repeating: "x", count: 101))", json: ["description": ""], token: admin.token)
            #expect(tooLong.status == .unprocessableContent, "\(tooLong.text)")
            let manager = try await app.signIn(role: .manager, store: store.id)
            #expect(try await app.request(.put, path, json: ["description": "mine"], token: manager.token).status == .forbidden)
            #expect(
                try await app.request(.get, "/v1/categories").json["items"].array.first { $0["name"].string == "Canned & tinned" }?["description"]
                    .string == "Tins for the cupboard.")
        }
    }
}
