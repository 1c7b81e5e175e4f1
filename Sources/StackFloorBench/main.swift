import Foundation
import Fulfilment
import FulfilmentDomain
import Hummingbird
import Logging
import PostgresNIO

// The chosen stack's own floor for checkout-bench's loop (issue 15): Hummingbird 2 serving the two
// routes the benchmark drives, PUT a cart line and POST a checkout, each making as many PostgreSQL
// round trips as the service does (1 and 2) through a PostgresNIO pool, its JSON decoded and
// encoded by Foundation, but with no middleware, no OpenAPI layer, no logging, no sessions and
// SQL that reads nothing. What a request costs this program is the least it could cost the
// service on the same stack and machine: `scripts/checkout-bench` runs it beside the service.
//
//   DATABASE_URL=... PORT=8099 stack-floor-bench

struct CartLineRequest: Decodable { var quantity: Int }
struct CheckoutRequest: Decodable { var paymentMethod: String }
struct Money: Encodable {
    var amount: Int
    var currency = "JMD"
}
struct Line: Encodable {
    var productId: String
    var name = "Product"
    var quantity: Int
    var unitPrice: Money
    var lineTotal: Money
}
struct Cart: Encodable {
    var items: [Line]
    var total: Money
}
/// About the size of the service's order answer: three lines and a pickup token.
struct Order: Encodable {
    var id = UUID().uuidString, number: Int, status = "pending", storeId: String, createdAt = Date()
    var lines: [Line], total: Money, paymentMethod: String, paymentStatus = "unpaid"
    var pickupToken = String(repeating: "P", count: 120)
}

@main struct StackFloorBench {
    static let encoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    static func json(_ status: HTTPResponse.Status, _ value: some Encodable) throws -> Response {
        Response(
            status: status, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(data: try encoder.encode(value))))
    }

    static func main() async throws {
        let environment = ProcessInfo.processInfo.environment
        let logger = Logger(label: "stack-floor-bench", factory: { _ in SwiftLogNoOpLogHandler() })
        let database = try Database(connection: ConnectionInfo.parse(environment["DATABASE_URL"] ?? ""), logger: logger)
        let client = database.client

        let router = Router()
        router.put("/v1/cart/items/{product}") { request, context in
            let product = try context.parameters.require("product")
            let line = try await request.decode(as: CartLineRequest.self, context: context)
            let token = request.headers[.authorization] ?? ""
            var quantity = 0
            for try await (_, q) in try await client.query("SELECT \(token)::text, \(line.quantity)::int", logger: logger)
                .decode((String, Int).self)
            { quantity = q }
            let price = Money(amount: 100)
            return try json(.ok, Cart(items: [Line(productId: product, quantity: quantity, unitPrice: price, lineTotal: price)], total: price))
        }
        router.post("/v1/checkout") { request, context in
            let checkout = try await request.decode(as: CheckoutRequest.self, context: context)
            let token = request.headers[.authorization] ?? ""
            let key = request.headers.first { $0.name.canonicalName == "idempotency-key" }?.value ?? ""
            var store = ""
            for try await (s, _) in try await client.query("SELECT \(token)::text, \(key)::text", logger: logger).decode((String, String).self) {
                store = s
            }
            var number = 0
            for try await (n, _) in try await client.query("SELECT 1::int, \(store)::text", logger: logger).decode((Int, String).self) {
                number = n
            }
            let price = Money(amount: 100)
            let lines = (0..<3).map { _ in Line(productId: UUID().uuidString, quantity: 1, unitPrice: price, lineTotal: price) }
            return try json(
                .created,
                Order(number: number, storeId: store, lines: lines, total: Money(amount: 300), paymentMethod: checkout.paymentMethod))
        }
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: Int(environment["PORT"] ?? "") ?? 8099)),
            services: [client], logger: logger)
        try await app.runService()
    }
}
