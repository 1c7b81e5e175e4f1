import Foundation
import HTTPTypes
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// A clock the test sets and moves: the app reads it through `AppConfiguration.clock`, so slot
/// rules (lead time, horizon, lateness) never depend on when the test runs.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    init(_ iso8601: String) { current = try! Date(iso8601, strategy: .iso8601) }

    var now: Date {
        get { lock.withLock { current } }
        set { lock.withLock { current = newValue } }
    }

    func set(_ iso8601: String) { now = try! Date(iso8601, strategy: .iso8601) }
}

/// `withApp` on a clock the test controls.
func withApp<T: Sendable>(
    clock: TestClock, hangLimit: Double = 600, _ body: @escaping @Sendable (TestApp) async throws -> T
) async throws -> T {
    try await withApp(hangLimit: hangLimit, configure: { $0.clock = { clock.now } }, body)
}

/// Helpers for the pickup slot tests: each reads as a step of the story.
extension TestApp {
    /// The store's manager sets its calendar through the API.
    @discardableResult
    func setCalendar(store: String, by manager: Session, _ calendar: JSONValue) async throws -> TestReply {
        try await request(.put, "/v1/stores/\(store)/calendar", json: calendar, token: manager.token)
    }

    /// A calendar open every day `opens`–`closes` in `zone`, with 30-minute slots.
    static func everyDay(
        _ opens: String = "09:00", _ closes: String = "17:00", zone: String = "Europe/London", capacity: Int = 2, lead: Int = 120,
        horizon: Int = 7, grace: Int = 60, closures: [String] = []
    ) -> JSONValue {
        let days = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
        return [
            "timeZone": .string(zone), "capacity": .int(capacity), "leadMinutes": .int(lead), "horizonDays": .int(horizon),
            "graceMinutes": .int(grace),
            "openingHours": .array(days.map { ["weekday": .string($0), "opens": .string(opens), "closes": .string(closes)] }),
            "closures": .array(closures.map { ["date": .string($0)] }),
        ]
    }

    /// A store with a calendar set by its manager; returns the store and the manager.
    func storeWithCalendar(_ calendar: JSONValue = TestApp.everyDay()) async throws -> (store: String, manager: Session) {
        let store = try await createStore()
        let manager = try await signIn(role: .manager, store: store)
        let reply = try await setCalendar(store: store, by: manager, calendar)
        guard reply.status == .ok else { throw TestSetupError("set calendar: \(reply.status) \(reply.text)") }
        return (store, manager)
    }

    /// The public slot list.
    func pickupSlots(store: String, from: String? = nil, days: Int? = nil) async throws -> TestReply {
        var query: [String] = []
        if let from { query.append("from=\(from)") }
        if let days { query.append("days=\(days)") }
        return try await request(.get, "/v1/stores/\(store)/pickup-slots" + (query.isEmpty ? "" : "?" + query.joined(separator: "&")))
    }

    /// Checks out with `slot` as the pickup slot (its start, as the slot list gives it).
    func checkout(_ session: Session, slot: String?, key: String = UUID().uuidString, method: String = "pay_at_collection") async throws -> TestReply
    {
        var body: [String: JSONValue] = ["paymentMethod": .string(method)]
        if let slot { body["pickupSlot"] = .string(slot) }
        return try await request(
            .post, "/v1/checkout", json: .object(body), token: session.token, headers: [HTTPField.Name("Idempotency-Key")!: key])
    }

    /// A new customer with one unit of a new product in the cart at `store`.
    func shopper(at store: String, onHand: Int = 10) async throws -> (Session, String) {
        let customer = try await registerCustomer()
        let product = try await addProduct(store: store, onHand: onHand)
        try await fillCart(customer, store: store, [(product, 1)])
        return (customer, product)
    }

    func moveSlot(_ order: String, to slot: String, by session: Session) async throws -> TestReply {
        try await request(.put, "/v1/orders/\(order)/pickup-slot", json: ["pickupSlot": .string(slot)], token: session.token)
    }

    /// Places taken in the slot starting at `start` (0 when none was ever booked).
    func booked(store: String, start: String) async throws -> Int {
        let rows = try await sql(
            "SELECT booked FROM pickup_slot_bookings WHERE store_id = $1 AND slot_start = $2::timestamptz", [store, start], on: database)
        return rows.first.flatMap { $0[0] }.flatMap { Int($0) } ?? 0
    }
}
