import Foundation
import FulfilmentClient
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

// README example: begin
/// Signs in, fills the cart, takes a free pickup slot, checks out; returns the order and its receipt.
func placeOrderFromApp(shop: URL, email: String, password: String) async throws -> (order: String, receipt: Data) {
    let api = FulfilmentAPI(baseURL: shop)
    api.token = try await api.client.login(body: .json(.init(email: email, password: password))).ok.body.json.token
    let store = try await api.client.listStores().ok.body.json.items[0]
    _ = try await api.client.setCartStore(body: .json(.init(storeId: store.id)))
    let rice = try await api.client.searchProducts(query: .init(q: "rice", storeId: store.id)).ok.body.json.items[0]
    _ = try await api.client.setCartItem(path: .init(productId: rice.id), body: .json(.init(quantity: 2)))
    let slots = try await api.client.listPickupSlots(path: .init(storeId: store.id)).ok.body.json.items
    let slot = slots.first { $0.remaining > 0 }
    do {
        // One attempt, one Idempotency-Key: a lost answer is sent again and never makes two orders.
        let order = try await api.checkout(.init(paymentMethod: .payAtCollection, pickupSlot: slot?.start))
        let png = try await api.client.getReceiptPng(path: .init(orderId: order.id)).ok.body.png
        return (order.id, try await Data(collecting: png, upTo: 1 << 20))
    } catch let error as ClientError {
        // The service's own words, for the app to show: "Only 1 left of Parboiled Rice."
        throw error.underlyingError as? FulfilmentError ?? error
    }
}
// README example: end

@Suite("The README's iOS example compiles, runs against the real service and stays the README's")
struct ReadmeExampleTests {
    @Test("the example places a real order whose receipt decodes to its pickup token")
    func exampleRuns() async throws {
        try await withApp { app in
            let (store, _) = try await app.storeWithCalendar()
            _ = try await app.addProduct(store: store, name: "Parboiled Rice", price: 45_000, onHand: 5)
            let customer = try await app.registerCustomer(email: "readme@example.com", password: "correct horse")
            let (orderID, receipt) = try await placeOrderFromApp(
                shop: URL(string: app.baseURL)!, email: "readme@example.com", password: "correct horse")
            let order = try await app.request(.get, "/v1/orders/\(orderID)", token: customer.token).json
            #expect(order["lines"].array.first?["quantity"].int == 2)
            #expect(try zbar(receipt) == order["pickupToken"].string)
        }
    }

    @Test("the README shows exactly the code this test runs")
    func readmeShowsIt() throws {
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let begin = try #require(source.range(of: "// README example: begin\n"))
        let end = try #require(source.range(of: "// README example: end", range: begin.upperBound..<source.endIndex))
        let example = String(source[begin.upperBound..<end.lowerBound])
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../README.md")
        let text = try String(contentsOf: readme.standardizedFileURL, encoding: .utf8)
        #expect(text.contains("```swift\nimport FulfilmentClient\n\n" + example + "```"))
    }
}
