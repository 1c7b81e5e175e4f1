import Foundation
import Logging
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Issue 43: the order transition rule is stated twice, as `OrderStatus.allowedTargets` for the
/// service and as `order_transition_allowed` (`sql/routines/order_transition_allowed.sql`) for
/// what the database decides under its locks (the scan's `collect_order`, the expiry sweep).
/// These tests ask both sides every question there is and fail when either changes alone.
@Suite("The transition rule: OrderStatus and order_transition_allowed agree")
struct TransitionRuleAgreementTests {
    let logger = Logger(label: "transition-rule-test")

    static var statuses: String { "{" + OrderStatus.allCases.map(\.rawValue).joined(separator: ",") + "}" }

    @Test("every pair of statuses gets the same answer from both sides; an unknown or missing status moves nowhere")
    func everyPair() async throws {
        try await withTestDatabase { db in
            let rows = try await sql(
                "SELECT f, t, order_transition_allowed(f, t)::text FROM unnest($1::text[]) f, unnest($1::text[]) t",
                [Self.statuses], on: db)
            #expect(rows.count == OrderStatus.allCases.count * OrderStatus.allCases.count)
            var allowedBySQL: [String] = []
            for row in rows {
                let from = try #require(OrderStatus(rawValue: row[0] ?? ""))
                let to = try #require(OrderStatus(rawValue: row[1] ?? ""))
                #expect(row[2] == (from.canTransition(to: to) ? "true" : "false"), "\(from.rawValue) → \(to.rawValue)")
                if row[2] == "true" { allowedBySQL.append("\(from.rawValue)→\(to.rawValue)") }
            }
            let allowedBySwift = OrderStatus.allCases.flatMap { from in from.allowedTargets.map { "\(from.rawValue)→\($0.rawValue)" } }
            #expect(allowedBySQL.sorted() == allowedBySwift.sorted())

            let odd = try await sql(
                """
                SELECT order_transition_allowed('nonsense', 'cancelled')::text, order_transition_allowed(NULL, 'cancelled')::text,
                       order_transition_allowed('pending', NULL)::text, order_transition_allowed('pending', 'nonsense')::text
                """, on: db)
            #expect(odd == [["false", "false", "false", "false"]])
        }
    }

    @Test("the statuses an order may have are OrderStatus's cases, no more and no fewer")
    func sameStatuses() async throws {
        try await withTestDatabase { db in
            let definition = try await sql(
                "SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'orders'::regclass AND conname = 'orders_status_check'",
                on: db)
            let text = try #require(definition.first?[0])
            let named = Set(text.matches(of: try Regex(#"'([a-z_]+)'"#)).compactMap { $0.output[1].substring.map(String.init) })
            #expect(named == Set(OrderStatus.allCases.map(\.rawValue)))
        }
    }

    /// An order of `store`, paid, driven through the API to `status`; its id and token.
    func order(in status: OrderStatus, store: String, staff: Session, app: TestApp) async throws -> (id: String, token: String) {
        let (_, order, _) = try await app.placeOrder(store: store)
        let id = try #require(order["id"].string)
        let token = try #require(order["pickupToken"].string)
        #expect(try await app.pay(order, by: staff).status == .created)
        let path: [String] =
            switch status {
            case .pending: []
            case .packaged: ["packaged"]
            case .delivering: ["packaged", "delivering"]
            case .completed: ["packaged"]
            case .cancelled: ["cancelled"]
            }
        for step in path { #expect(try await app.transition(id, to: step, by: staff).status == .ok) }
        if status == .completed { #expect(try await app.scan(token, by: staff).status == .ok) }
        return (id, token)
    }

    @Test("the scan (collect_order) and the expiry sweep decide every status as OrderStatus does")
    func routinesAskTheRule() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            var orders: [(status: OrderStatus, id: String, token: String)] = []
            for status in OrderStatus.allCases {
                let (id, token) = try await order(in: status, store: store, staff: staff, app: app)
                orders.append((status, id, token))
            }
            // The scan's verdict under its locks, each in a transaction rolled back: nothing changes.
            for order in orders {
                let verdict = try await Migrator.offloaded { [database = app.database] in
                    let connection = try LibPQConnection(database)
                    try connection.execute("BEGIN")
                    defer { _ = try? connection.execute("ROLLBACK") }
                    return try connection.execute(
                        "SELECT collect_order($1, $2, $3, $4, NULL)::text", parameters: [order.id, store, staff.userID, order.token])
                }
                #expect(
                    verdict == [[order.status.canTransition(to: .completed) ? "true" : "false"]],
                    "collect_order of a \(order.status.rawValue) order")
            }
            // Every token expired by next year: the sweep picks exactly the orders that may be cancelled.
            let candidates = try await app.withDatabase { database in
                try await OrderExpiry(database: database).candidates(expiredBy: Date().addingTimeInterval(366 * 86_400), logger: logger)
            }
            #expect(
                Set(candidates.map(\.id.description)) == Set(orders.filter { $0.status.canTransition(to: .cancelled) }.map(\.id)),
                "the expiry sweep's candidates")
        }
    }
}
