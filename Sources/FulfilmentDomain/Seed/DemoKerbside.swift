import Foundation
import Logging

/// The demo's kerbside (issue 27): the first demo order on a pick list whose picker found no Spam
/// and gave Grace Corned Beef instead, waiting for the customer's answer; and the last demo order
/// packed, its customer at bay 2. Done through the same services staff and customers use, after
/// `DemoOrders.place`, so the desk, the board and pick mode show both on the first `make run`.
public enum DemoKerbside {
    public static let substitute = (original: "Spam", given: "Grace Corned Beef")
    public static let bay = "2"

    /// `orders` are the demo orders' numbers, oldest first; `staffEmail` the demo staff account.
    public static func prepare(
        into database: Database, orders: [Int64], store: StoreID, staffEmail: String, customerEmail: String, logger: Logger
    ) async throws {
        guard orders.count >= 2,
            let (staffUser, _) = try await UserQueries.credentials(email: staffEmail, on: database.client, logger: logger),
            let (customer, _) = try await UserQueries.credentials(email: customerEmail, on: database.client, logger: logger),
            let first = try await DemoSeedQueries.orderID(number: orders[0], store: store, on: database.client, logger: logger),
            let last = try await DemoSeedQueries.orderID(number: orders[orders.count - 1], store: store, on: database.client, logger: logger),
            let original = try await DemoSeedQueries.productID(named: substitute.original, on: database.client, logger: logger),
            let given = try await DemoSeedQueries.productID(named: substitute.given, on: database.client, logger: logger)
        else { return }
        let staff = Identity(userID: staffUser.id, role: .staff, storeID: store, sessionID: SessionID(UUID()))
        let scope = try StoreScope(staff: staff)
        let list = try await PickLists(database: database).create(in: scope, maxOrders: nil, orderIDs: [first], by: staff, logger: logger)
        _ = try await Substitutions(database: database).substitute(
            on: list.id, order: first, product: original, choice: .product(given), quantity: 1, in: scope, by: staff, logger: logger)
        _ = try await OrderTransitions(database: database).move(
            order: last, to: .packaged, reason: "packed for the demo", by: staff.userID, in: scope, logger: logger)
        _ = try await Arrivals(database: database).arrive(
            order: last, bay: bay, vehicle: "Silver Toyota Axio", note: nil, customer: customer.id, logger: logger)
    }
}
