import AsyncHTTPClient
import Foundation
import FulfilmentClient
import HTTPTypes
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

@Suite("A customer's whole journey through the Swift client, against the real service")
struct ClientJourneyTests {
    @Test(
        "register, search, fill the cart, take a slot, check out (twice on one key: one order), decode the receipt, follow the events, cancel"
    )
    func journey() async throws {
        try await withApp { app in
            let (store, _) = try await app.storeWithCalendar()
            let rice = try await app.addProduct(store: store, name: "Parboiled Rice", price: 45_000, onHand: 20)
            let api = FulfilmentAPI(baseURL: URL(string: app.baseURL)!)

            let email = "journey-\(UUID().uuidString.prefix(8).lowercased())@example.com"
            let registered = try await api.client.register(
                body: .json(.init(email: email, name: "Journey", password: "correct horse", passwordConfirmation: "correct horse")))
            api.token = try registered.created.body.json.token

            // Search with a typo, as people type on a phone.
            let found = try await api.client.searchProducts(query: .init(q: "parbioled rice", storeId: store)).ok.body.json.items
            #expect(found.first?.id == rice)

            _ = try await api.client.setCartStore(body: .json(.init(storeId: store)))
            let cart = try await api.client.setCartItem(path: .init(productId: rice), body: .json(.init(quantity: 2))).ok.body.json
            #expect(cart.itemCount == 2 && cart.total.amount == 90_000)

            let slots = try await api.client.listPickupSlots(path: .init(storeId: store)).ok.body.json.items
            let slot = try #require(slots.first { $0.remaining > 0 })

            // One attempt, sent twice (a double tap): one order, answered twice.
            let key = UUID().uuidString
            let order = try await api.checkout(.init(paymentMethod: .payAtCollection, pickupSlot: slot.start), idempotencyKey: key)
            let again = try await api.checkout(.init(paymentMethod: .payAtCollection, pickupSlot: slot.start), idempotencyKey: key)
            #expect(again.id == order.id)
            let mine = try await api.client.listOrders().ok.body.json.items
            #expect(mine.map(\.id) == [order.id])

            // The receipt, as the app shows it: a PNG whose QR is the pickup token.
            let png = try await api.client.getReceiptPng(path: .init(orderId: order.id), query: .init(scale: 8)).ok.body.png
            let bytes = try await Data(collecting: png, upTo: 1 << 20)
            #expect(try zbar(bytes) == order.pickupToken)

            // Live events: the order's story, then its cancellation as it happens.
            let streaming = FulfilmentAPI(baseURL: URL(string: app.baseURL)!, token: api.token, transport: AsyncHTTPClientTransport())
            var events = streaming.orderEvents(order.id).makeAsyncIterator()
            let placed = try #require(try await events.next())
            #expect(placed.type == "order.placed")
            _ = try await api.client.cancelOrder(path: .init(orderId: order.id), query: .init(reason: "changed my mind"))
            let cancelled = try #require(try await events.next())
            #expect(cancelled.type == "order.cancelled" && cancelled.sequence > placed.sequence)
            struct Cancelled: Decodable {
                struct Summary: Decodable { var status: String }
                var order: Summary
                var reason: String?
            }
            let told = try cancelled.data(as: Cancelled.self)
            #expect(told.order.status == "cancelled" && told.reason == "changed my mind")

            // The cancelled order gave its stock back.
            #expect(try await app.stock(store: store, product: rice).reserved == 0)
        }
    }

    @Test("a live stream cut off mid-way connects again with Last-Event-ID and misses nothing, repeats nothing")
    func resumes() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let (customer, _) = try await app.shopper(at: store)
            let staff = try await app.signIn(role: .staff, store: store)
            let order = try await app.checkout(customer).json
            let orderID = try #require(order["id"].string)

            let cutting = CuttingTransport(AsyncHTTPClientTransport())
            let api = FulfilmentAPI(baseURL: URL(string: app.baseURL)!, token: customer.token, transport: cutting)
            var events = api.orderEvents(orderID).makeAsyncIterator()
            let placed = try #require(try await events.next())  // the first connection ends after this one
            for next in ["packaged", "delivering"] {
                #expect(try await app.transition(orderID, to: next, by: staff).status == .ok)
            }
            let packed = try #require(try await events.next())
            let atDesk = try #require(try await events.next())
            #expect([placed.type, packed.type, atDesk.type] == ["order.placed", "order.ready_for_pickup", "order.at_collection_point"])
            #expect(packed.sequence > placed.sequence && atDesk.sequence > packed.sequence)
            #expect(cutting.lastEventIDs == [nil, String(placed.sequence)])
        }
    }

    @Test("a 429 is waited out for Retry-After and sent again; past the policy's longest wait it is thrown")
    func waitsOutRetryAfter() async throws {
        // A window of 4 s: the second sign-in must land in the first one's window, even on a busy
        // machine (with 2 s, a fresh clone's CI run once took longer between the two).
        try await withApp(configure: { $0.loginThrottle = LoginThrottle(perAccountAndAddress: 100, perAddress: 1, perAccount: 100, windowSeconds: 4) }
        ) { app in
            let patient = FulfilmentAPI(baseURL: URL(string: app.baseURL)!, retry: RetryPolicy(attempts: 3, longestWait: .seconds(5)))
            let impatient = FulfilmentAPI(baseURL: URL(string: app.baseURL)!, retry: RetryPolicy(attempts: 3, longestWait: .zero))
            let login = FulfilmentClient.Components.Schemas.LoginRequest(email: "nobody@example.com", password: "wrong password")
            // The first attempt uses this address's one try; the next is refused with Retry-After.
            await #expect(throws: ClientError.self) { try await impatient.client.login(body: .json(login)) }
            do {
                _ = try await impatient.client.login(body: .json(login))
                Issue.record("the throttle let a second login through")
            } catch let error as ClientError {
                let refusal = try #require(error.underlyingError as? FulfilmentError)
                #expect(refusal.status == 429 && (refusal.retryAfterSeconds ?? 0) >= 1)
            }
            // Waited out, the same login reaches the service and gets its real answer: 401.
            do {
                _ = try await patient.client.login(body: .json(login))
            } catch let error as ClientError {
                let refusal = try #require(error.underlyingError as? FulfilmentError)
                #expect(refusal.status == 401)
            }
        }
    }

    @Test("a checkout whose answer is lost on the way back is sent again on its key: the customer gets the one order made")
    func lostAnswer() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let (customer, _) = try await app.shopper(at: store)
            let losing = LosingTransport(AsyncHTTPClientTransport(), operation: "checkout")
            let api = FulfilmentAPI(baseURL: URL(string: app.baseURL)!, token: customer.token, transport: losing)
            let order = try await api.checkout(.init(paymentMethod: .payAtCollection))
            #expect(losing.sent == 2)
            let orders = try await api.client.listOrders().ok.body.json.items
            #expect(orders.map(\.id) == [order.id])
        }
    }
}

/// A real transport that loses the first answer to `operation`: the request reaches the service,
/// which does the work, and the app hears only that the connection dropped.
final class LosingTransport: ClientTransport, @unchecked Sendable {
    private let inner: any ClientTransport
    private let operation: String
    private let lock = NSLock()
    private var count = 0

    init(_ inner: any ClientTransport, operation: String) {
        self.inner = inner
        self.operation = operation
    }

    var sent: Int { lock.withLock { count } }

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        let answer = try await inner.send(request, body: body, baseURL: baseURL, operationID: operationID)
        guard operationID == operation else { return answer }
        let first = lock.withLock {
            count += 1
            return count == 1
        }
        if first { throw URLError(.networkConnectionLost) }
        return answer
    }
}

/// A real transport whose first live stream is cut after its first event, as a phone loses its
/// connection; it notes the `Last-Event-ID` each stream was opened with.
final class CuttingTransport: ClientTransport, @unchecked Sendable {
    private let inner: any ClientTransport
    private let lock = NSLock()
    private var opened: [String?] = []

    init(_ inner: any ClientTransport) { self.inner = inner }

    var lastEventIDs: [String?] { lock.withLock { opened } }

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        let (response, responseBody) = try await inner.send(request, body: body, baseURL: baseURL, operationID: operationID)
        guard operationID == "streamOrderEvents", let responseBody else { return (response, responseBody) }
        let first = lock.withLock {
            opened.append(request.headerFields[HTTPField.Name("Last-Event-ID")!])
            return opened.count == 1
        }
        guard first else { return (response, responseBody) }
        // Pass bytes on until the end of the first event that has an id, then end the body.
        let cut = AsyncThrowingStream<ArraySlice<UInt8>, any Error> { continuation in
            let task = Task {
                var seen: [UInt8] = []
                do {
                    for try await chunk in responseBody {
                        seen.append(contentsOf: chunk)
                        let text = String(decoding: seen, as: UTF8.self)
                        if let id = text.range(of: "id: "), let end = text.range(of: "\n\n", range: id.upperBound..<text.endIndex) {
                            continuation.yield(ArraySlice(text[..<end.upperBound].utf8))
                            break
                        }
                    }
                } catch {}
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
        return (response, HTTPBody(cut, length: .unknown, iterationBehavior: .single))
    }
}
