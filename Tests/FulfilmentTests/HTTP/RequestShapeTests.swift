import Foundation
import HTTPTypes
import Hummingbird
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Requests the contract does not take are told so plainly (issue 12).
@Suite("Request shape: 405 with Allow, 413 before the body is read, odd text is a 422")
struct RequestShapeTests {
    @Test("a method the path does not have is 405 with Allow; an unknown path stays 404")
    func methodNotAllowed() async throws {
        try await withApp { app in
            let wrong = try await app.request(.delete, "/v1/checkout")
            #expect(wrong.status == .methodNotAllowed)
            #expect(wrong.errorCode == "method_not_allowed")
            #expect(wrong.headers[.allow] == "POST")
            let order = try await app.request(.put, "/v1/orders/\(UUID())")
            #expect(order.status == .methodNotAllowed)
            #expect(order.headers[.allow] == "GET, HEAD")
            let sheet = try await app.request(.post, "/v1/pick-lists/\(UUID()).html")
            #expect(sheet.headers[.allow] == "GET, HEAD")
            #expect(try await app.request(.get, "/v1/no-such-thing").status == .notFound)
            // The right method still reaches its route.
            #expect(try await app.request(.get, "/v1/stores").status == .ok)
        }
    }

    @Test("a body larger than any route takes is 413, judged from its Content-Length before it is read")
    func tooLarge() async throws {
        try await withApp { app in
            let customer = try await app.registerCustomer()
            let huge = "{\"paymentMethod\": \"" + String(repeating: "x", count: BodyLimit.json.bytes) + "\"}"
            let reply = try await app.request(.post, "/v1/checkout", rawBody: huge, token: customer.token)
            #expect(reply.status == .contentTooLarge)
            #expect(reply.errorCode == "payload_too_large")
        }
    }

    @Test("a search for text holding a NUL byte is a 422, not a 500")
    func nulByte() async throws {
        try await withApp { app in
            let reply = try await app.request(.get, "/v1/products?q=milk%00")
            #expect(reply.status == .unprocessableContent, "\(reply.text)")
            #expect(reply.errorCode == "invalid_text")
        }
    }

    @Test("a null the contract does not allow is a 422 naming the field, and nothing changes")
    func nullField() async throws {
        try await withApp { app in
            let store = try await app.catalogueStore()
            let product = try await app.addProduct(store: store.id)
            let customer = try await app.registerCustomer()
            try await app.fillCart(customer, store: store.id, [(product, 2)])
            let reply = try await app.request(.put, "/v1/cart/items/\(product)", json: ["quantity": .null], token: customer.token)
            #expect(reply.status == .unprocessableContent)
            #expect(reply.errorCode == "invalid_field")
            #expect(reply.json["error"]["details"]["field"].string == "quantity")
            let cart = try await app.request(.get, "/v1/cart", token: customer.token)
            #expect(cart.json["items"][0]["quantity"].int == 2)
            // The one field a request may null: a product's minimum age (and leaving it out means the same).
            #expect(NullFieldMiddleware<AppRequestContext>.firstNull(in: ["minimumAge": NSNull()], at: "") == nil)
            #expect(NullFieldMiddleware<AppRequestContext>.firstNull(in: ["lines": [["quantity": NSNull()]]], at: "") == "lines[0].quantity")
            // The sieve that spares most bodies the parse lets every null through, split or not.
            for (body, holds) in [("{\"quantity\":null}", true), ("{\"a\":\"nnull\"}", true), ("{\"quantity\":1}", false), ("nul", false)] {
                #expect(NullFieldMiddleware<AppRequestContext>.mayHoldNull(ByteBuffer(string: body)) == holds, "\(body)")
            }
        }
    }

    @Test("a query parameter outside its enum is a 422 invalid_parameter, not a 400 about JSON")
    func badQueryParameter() async throws {
        try await withApp { app in
            let store = try await app.catalogueStore()
            let staff = try await app.signIn(role: .staff, store: store.id)
            let reply = try await app.request(.get, "/v1/stores/\(store.id)/orders?status=AAA", token: staff.token)
            #expect(reply.status == .unprocessableContent, "\(reply.text)")
            #expect(reply.errorCode == "invalid_parameter")
            #expect(try await app.request(.get, "/v1/stores/\(store.id)/orders?status=pending", token: staff.token).status == .ok)
        }
    }

    @Test("a bearer token is read with HTTP's optional whitespace around it, and only from a Bearer header")
    func bearerToken() {
        func token(_ value: String) -> String? {
            RequestScopeMiddleware<AppRequestContext>.bearerToken([.authorization: value])
        }
        #expect(token("Bearer abc") == "abc")
        #expect(token("bearer  abc \t") == "abc")
        #expect(token("Bearer a b") == "a b")
        #expect(token("Bearer  \t ") == nil)
        #expect(token("Basic abc") == nil)
        #expect(token("Bearer") == nil)
    }

    @Test("the contract's paths are read with their methods")
    func contractRoutes() {
        let routes = ContractRoutes(yaml: String(decoding: OpenAPIDocument.yaml, as: UTF8.self))
        #expect(routes.methods(for: "/v1/cart") == ["GET", "HEAD", "PUT", "DELETE"])
        #expect(routes.methods(for: "/v1/pick-lists/abc.txt") == ["GET", "HEAD"])
        #expect(routes.methods(for: "/v1/pick-lists/abc") == ["GET", "HEAD"])
        #expect(routes.methods(for: "/v1/pick-lists/abc/picks") == ["POST"])
        #expect(routes.methods(for: "/console/desk") == nil)
    }
}
