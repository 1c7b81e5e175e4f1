import Foundation
import Logging
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Issue 13: the end of an order's life. Nobody came for it: once its pickup token has
/// expired, the system cancels it (`uncollected`), gives its stock back and, when it was paid,
/// owes the money back. The clock is the test's: each sweep is told what time it is.
@Suite("Uncollected orders: the expiry sweep")
struct OrderExpiryTests {
    let logger = Logger(label: "expiry-test")

    /// A moment after every 7-day token the test made has expired.
    static let nextMonth = Date().addingTimeInterval(30 * 86_400)

    @Test("an uncollected order is cancelled by the system, its stock goes back, a paid one owes a refund; the rest are left alone")
    func sweepsOnlyUncollected() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            // Pending and never collected.
            let (customer, forgotten, forgottenProduct) = try await app.placeOrder(store: store, quantity: 2)
            // Prepaid, paid, packed, never collected.
            let (_, packed, packedProduct) = try await app.placeOrder(store: store, quantity: 3, price: 500, method: "prepaid")
            let packedID = packed["id"].string!
            #expect(
                try await app.webhook(
                    #"{"id": "evt_exp_1", "type": "payment.succeeded", "orderId": "\#(packedID)", "amount": {"amount": 1500, "currency": "JMD"}}"#
                ).json["outcome"].string == "paid")
            #expect(try await app.transition(packedID, to: "packaged", by: staff).status == .ok)
            // Still inside its window at the test's clock.
            let (_, later, _) = try await app.placeOrder(store: store)
            try await sql(
                "UPDATE pickup_tokens SET expires_at = $2::timestamptz WHERE order_id = $1",
                [later["id"].string!, ISO8601DateFormatter().string(from: Self.nextMonth.addingTimeInterval(3600))], on: app.database)
            // Collected, and cancelled by its customer: over already.
            let (_, collected, _) = try await app.placeOrder(store: store)
            #expect(try await app.transition(collected["id"].string!, to: "packaged", by: staff).status == .ok)
            #expect(try await app.pay(collected, by: staff).status == .created)
            #expect(try await app.scan(collected["pickupToken"].string!, by: staff).status == .ok)
            let (other, withdrawn, _) = try await app.placeOrder(store: store)
            #expect(try await app.request(.post, "/v1/orders/\(withdrawn["id"].string!)/cancel", token: other.token).status == .ok)

            // Nothing has expired yet by the real clock.
            let today = try await app.withDatabase { try await OrderExpiry(database: $0).sweep(now: Date(), logger: logger) }
            #expect(today.isEmpty)

            let swept = try await app.withDatabase { try await OrderExpiry(database: $0).sweep(now: Self.nextMonth, logger: logger) }
            #expect(Set(swept.map(\.description)) == [forgotten["id"].string!, packedID])

            let gone = try await app.request(.get, "/v1/orders/\(forgotten["id"].string!)", token: customer.token)
            #expect(gone.json["status"].string == "cancelled")
            let last = gone.json["history"].array.last ?? .null
            #expect(last["to"].string == "cancelled")
            #expect(last["from"].string == "pending")
            #expect(last["reason"].string == "uncollected")
            #expect(!last.has("by"), "the system, not a person")
            #expect(try await app.stock(store: store, product: forgottenProduct) == (10, 0))
            // Packed goods go back to stock too; the provider's money is owed back in full.
            #expect(try await app.stock(store: store, product: packedProduct) == (10, 0))
            let refund = try await sql(
                "SELECT status, payment_status, refund_due_amount FROM orders WHERE id = $1", [packedID], on: app.database)
            #expect(refund[0] == ["cancelled", "refund_due", "1500"])

            let untouched = try await sql(
                "SELECT status FROM orders WHERE id = ANY($1::uuid[]) ORDER BY number",
                ["{\(later["id"].string!),\(collected["id"].string!),\(withdrawn["id"].string!)}"], on: app.database)
            #expect(untouched.map { $0[0] } == ["pending", "completed", "cancelled"])
            let cancellations = try await sql(
                "SELECT count(*) FROM order_events WHERE order_id = $1 AND to_status = 'cancelled'", [withdrawn["id"].string!],
                on: app.database)
            #expect(cancellations[0][0] == "1")

            // Idempotent: the next sweep finds nothing to do.
            let again = try await app.withDatabase { try await OrderExpiry(database: $0).sweep(now: Self.nextMonth, logger: logger) }
            #expect(again.isEmpty)
            #expect(try await sql("SELECT count(*) FROM order_events WHERE reason = 'uncollected'", on: app.database)[0][0] == "2")
        }
    }

    @Test("two instances sweeping at the same moment cancel every expired order exactly once")
    func twoInstances() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            var orders: [String: String] = [:]  // order id → product id
            for _ in 0..<16 {
                let (_, order, product) = try await app.placeOrder(store: store, quantity: 2)
                orders[order["id"].string!] = product
            }
            let logger = self.logger
            // Each instance has a client (and so connections) of its own, as separate processes would.
            let (first, second) = try await app.withDatabase { one in
                try await app.withDatabase { two in
                    async let a = OrderExpiry(database: one).sweep(now: Self.nextMonth, logger: logger)
                    async let b = OrderExpiry(database: two).sweep(now: Self.nextMonth, logger: logger)
                    return try await (a.map(\.description), b.map(\.description))
                }
            }
            #expect(Set(first).isDisjoint(with: second), "an order cancelled by both instances")
            #expect(Set(first + second) == Set(orders.keys))
            #expect(first.count + second.count == orders.count)
            let events = try await sql(
                "SELECT count(*), count(DISTINCT order_id) FROM order_events WHERE to_status = 'cancelled' AND reason = 'uncollected'",
                on: app.database)
            #expect(events[0] == ["16", "16"])
            for (_, product) in orders {
                #expect(try await app.stock(store: store, product: product) == (10, 0))
            }
        }
    }

    @Test("an order another sweep cancelled since it was read is left alone, not cancelled twice")
    func staleCandidate() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let (_, order, product) = try await app.placeOrder(store: store, quantity: 4)
            let logger = self.logger
            try await app.withDatabase { database in
                let expiry = OrderExpiry(database: database)
                let candidates = try await expiry.candidates(expiredBy: Self.nextMonth, logger: logger)
                #expect(candidates.map(\.id.description) == [order["id"].string!])
                // Two instances read the same candidate; the second claims it after the first is done.
                #expect(try await expiry.expire(candidates[0], now: Self.nextMonth, logger: logger))
                #expect(try await expiry.expire(candidates[0], now: Self.nextMonth, logger: logger) == false)
            }
            #expect(try await app.stock(store: store, product: product) == (10, 0))
            let events = try await sql(
                "SELECT count(*) FROM order_events WHERE order_id = $1 AND to_status = 'cancelled'", [order["id"].string!], on: app.database)
            #expect(events[0][0] == "1")
        }
    }

    @Test("an order another transaction is holding (a payment arriving) is skipped, not waited for, and swept next time")
    func heldOrderIsSkipped() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let (_, held, _) = try await app.placeOrder(store: store)
            let (_, free, _) = try await app.placeOrder(store: store)
            let heldID = try #require(UUID(uuidString: held["id"].string!))
            let logger = self.logger
            let progress = Progress()
            try await app.withDatabase { holder in
                try await app.withDatabase { sweeper in
                    // The holder locks the order row, as the payment webhook does, and lets go when
                    // the sweep is over — or after 5 seconds, so a sweep that waits still ends.
                    async let holding: Void = holder.transaction(logger: logger) { connection in
                        try await connection.run("SELECT 1 FROM orders WHERE id = \(heldID) FOR UPDATE", logger: logger)
                        await progress.lock()
                        for _ in 0..<100 where await !progress.sweepDone { try await Task.sleep(for: .milliseconds(50)) }
                        await progress.release()
                    }
                    await progress.waitUntilLocked()
                    let swept = try await OrderExpiry(database: sweeper).sweep(now: Self.nextMonth, logger: logger)
                    let stillHeld = await !progress.released
                    await progress.finishSweep()
                    try await holding
                    #expect(swept.map(\.description) == [free["id"].string!], "the held order was waited for, not skipped")
                    #expect(stillHeld, "the sweep returned only once the lock was let go")
                    let next = try await OrderExpiry(database: sweeper).sweep(now: Self.nextMonth, logger: logger)
                    #expect(next.map(\.description) == [held["id"].string!])
                }
            }
        }
    }

    /// Where the lock holder and the sweep are, for `heldOrderIsSkipped`.
    actor Progress {
        private(set) var sweepDone = false
        private(set) var released = false
        private var locked = false
        private var waiting: [CheckedContinuation<Void, Never>] = []

        func lock() {
            locked = true
            for waiter in waiting { waiter.resume() }
            waiting = []
        }
        func release() { released = true }
        func finishSweep() { sweepDone = true }
        func waitUntilLocked() async {
            if locked { return }
            await withCheckedContinuation { waiting.append($0) }
        }
    }

    @Test("the token's expiry is the deadline: an order whose token was given longer is not swept")
    func deadlineIsTheToken() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let (_, order, _) = try await app.placeOrder(store: store)
            let id = order["id"].string!
            try await sql(
                "UPDATE pickup_tokens SET expires_at = $2::timestamptz WHERE order_id = $1",
                [id, ISO8601DateFormatter().string(from: Self.nextMonth.addingTimeInterval(86_400))], on: app.database)
            let logger = self.logger
            let swept = try await app.withDatabase { try await OrderExpiry(database: $0).sweep(now: Self.nextMonth, logger: logger) }
            #expect(swept.isEmpty)
            #expect(try await sql("SELECT status FROM orders WHERE id = $1", [id], on: app.database)[0][0] == "pending")
        }
    }
}
