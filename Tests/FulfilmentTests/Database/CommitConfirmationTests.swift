import Foundation
import HTTPTypes
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Success means committed (issue 42): a lone statement whose commit fails (a deferred
/// constraint trigger raising at COMMIT, as a full disk does) is answered `503`, and what it
/// wrote is gone. Before, PostgresNIO completed it at CommandComplete: the desk was told
/// "completed" for an order still packaged, and the same QR scanned again answered 200 again.
@Suite("Success means committed: a write whose commit fails is a 503, never a 2xx")
struct CommitConfirmationTests {
    /// A trigger on `table` that raises at COMMIT, after the statement's CommandComplete.
    static func failCommits(on table: String, _ app: TestApp) async throws {
        try await sql(
            """
            CREATE OR REPLACE FUNCTION refuse_commit() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN RAISE EXCEPTION 'commit refused on purpose'; END $$
            """, on: app.database)
        try await sql(
            """
            CREATE CONSTRAINT TRIGGER refuse_commit AFTER INSERT OR UPDATE OR DELETE ON \(table)
                DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION refuse_commit();
            """, on: app.database)
    }

    static func allowCommits(on table: String, _ app: TestApp) async throws {
        try await sql("DROP TRIGGER refuse_commit ON \(table)", on: app.database)
    }

    @Test("scanning a QR whose commit fails is 503 database_unavailable, the order stays packaged, and scanning again is not a second success")
    func collection() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let (_, order, _) = try await app.placeOrder(store: store)
            let id = try #require(order["id"].string)
            #expect(try await app.pay(order, by: staff).status.code < 300)
            #expect(try await app.transition(id, to: "packaged", by: staff).status == .ok)
            try await Self.failCommits(on: "orders", app)
            for _ in 0..<2 {
                let scan = try await app.scan(try #require(order["pickupToken"].string), by: staff)
                #expect(scan.status == .serviceUnavailable, "\(scan.status) \(scan.text)")
                #expect(scan.errorCode == "database_unavailable")
                #expect(scan.headers[.retryAfter] != nil)
            }
            #expect(try await sql("SELECT status FROM orders WHERE id = $1", [id], on: app.database)[0][0] == "packaged")
            try await Self.allowCommits(on: "orders", app)
            let scan = try await app.scan(try #require(order["pickupToken"].string), by: staff)
            #expect(scan.status == .ok && scan.json["status"].string == "completed")
        }
    }

    @Test("signing out whose commit fails is 503, and the session still works; a cart line likewise is not stored")
    func logoutAndCart() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let product = try await app.addProduct(store: store, onHand: 5)
            let customer = try await app.registerCustomer()
            try await Self.failCommits(on: "sessions", app)
            let logout = try await app.request(.post, "/v1/auth/logout", token: customer.token)
            #expect(logout.status == .serviceUnavailable && logout.errorCode == "database_unavailable", "\(logout.status) \(logout.text)")
            try await Self.allowCommits(on: "sessions", app)
            #expect(try await app.request(.get, "/v1/me", token: customer.token).status == .ok)

            try await app.fillCart(customer, store: store, [])
            try await Self.failCommits(on: "cart_items", app)
            let line = try await app.request(.put, "/v1/cart/items/\(product)", json: ["quantity": 2], token: customer.token)
            #expect(line.status == .serviceUnavailable && line.errorCode == "database_unavailable", "\(line.status) \(line.text)")
            try await Self.allowCommits(on: "cart_items", app)
            #expect(try await sql("SELECT count(*) FROM cart_items", on: app.database)[0][0] == "0")
        }
    }
}
