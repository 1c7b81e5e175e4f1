import Foundation
import Logging
import PostgresNIO
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Issue 43, item 5: a value the code does not know, read from a column, is an error naming the
/// column and the value, never a default (an unknown status used to read as `pending`).
@Suite("Stored values: an unknown one fails loudly")
struct StoredValueTests {
    @Test("stored(_:column:) answers the case, nil for NULL, or an error naming the column and the value")
    func stored() throws {
        #expect(try OrderStatus.stored("packaged", column: "status") == .packaged)
        #expect(try PaymentMethod.stored("pay_at_collection", column: "payment_method") == .payAtCollection)
        #expect(try OrderStatus.stored(nil as String?, column: "from_status") == nil)
        #expect(try OrderStatus.stored("cancelled" as String?, column: "from_status") == .cancelled)
        #expect(throws: UnknownStoredValue(column: "status", value: "lost")) { try OrderStatus.stored("lost", column: "status") }
        #expect(throws: UnknownStoredValue(column: "history.to", value: "Pending")) {
            try OrderStatus.stored("Pending" as String?, column: "history.to")
        }
        let error = UnknownStoredValue(column: "status", value: "lost")
        #expect(error.description == "column status holds 'lost', which this version does not know")
        // What the log says of it, and what the client gets: a bare 500.
        #expect(ErrorLog.describe(error) == error.description)
        let answer = ErrorMiddleware<AppRequestContext>.apiError(for: error)
        #expect(answer.status == .internalServerError)
        #expect(answer.code == APIError.internal.code)
    }

    @Test("a cell names its own column: a status read by name fails naming it")
    func cell() async throws {
        try await withTestDatabase { info in
            let database = try FulfilmentDomain.Database(connection: info, logger: Logger(label: "test"))
            try await withRunning(database) {
                let rows = try await database.client.run(
                    "SELECT 'packaged'::text AS status, 'lost'::text AS to_status, NULL::text AS from_status", logger: Logger(label: "test"))
                let row = try #require(rows.collect().first).makeRandomAccess()
                #expect(try row["status"].stored(OrderStatus.self) == .packaged)
                #expect(try row["from_status"].stored(OrderStatus?.self) == nil)
                #expect(throws: UnknownStoredValue(column: "to_status", value: "lost")) { try row["to_status"].stored(OrderStatus.self) }
                #expect(throws: UnknownStoredValue(column: "to_status", value: "lost")) { try row["to_status"].stored(OrderStatus?.self) }
            }
        }
    }

    @Test("an order whose status this version does not know: reads fail naming status and 'lost', the API answers 500")
    func unknownOrderStatus() async throws {
        let logs = LogCapture()
        try await withApp(logHandler: logs) { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let (customer, order, _) = try await app.placeOrder(store: store)
            let id = order["id"].string!
            #expect(try await app.request(.get, "/v1/orders/\(id)", token: customer.token).json["status"] == "pending")
            // A newer version's status (or a hand edit): the schema's check is what stopped it.
            try await sql("ALTER TABLE orders DROP CONSTRAINT orders_status_check", on: app.database)
            #expect(try await sql("UPDATE orders SET status = 'lost' WHERE id = $1 RETURNING status", [id], on: app.database) == [["lost"]])

            try await app.withDatabase { database in
                let logger = Logger(label: "test")
                let orderID = OrderID(UUID(uuidString: id)!)
                let unknown = UnknownStoredValue(column: "status", value: "lost")
                await #expect(throws: unknown) { try await OrderQueries.order(id: orderID, on: database.client, logger: logger) }
                await #expect(throws: unknown) {
                    try await OrderQueries.list(
                        customer: UserID(UUID(uuidString: customer.userID)!), limit: 10, cursor: nil, on: database.client, logger: logger)
                }
                _ = try await database.client.withConnection { connection in
                    await #expect(throws: unknown) { try await OrderQueries.status(of: orderID, on: connection, logger: logger) }
                }
            }

            // The order, to its customer and to the store's staff, and the customer's list: 500, never a wrong status.
            for (path, token) in [("/v1/orders/\(id)", customer.token), ("/v1/orders/\(id)", staff.token), ("/v1/orders", customer.token)] {
                let reply = try await app.request(.get, path, token: token)
                #expect(reply.status == .internalServerError, "\(path)")
                #expect(reply.errorCode == APIError.internal.code, "\(path)")
                #expect(!reply.text.contains("pending") && !reply.text.contains("lost"), "\(path): \(reply.text)")
            }
            #expect(logs.text.contains("column status holds 'lost', which this version does not know"))
        }
    }
}
