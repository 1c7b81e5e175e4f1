import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Issue 24, item 11: the customer's receipt page says until when its code is valid in the
/// store's own time, with the zone's offset, as the desk shows slots — not in UTC.
@Suite("The receipt page's times")
struct ReceiptLocalTimeTests {
    @Test("a store in America/Jamaica: the code is valid until a Jamaican time, offset UTC-05:00; a store without a zone says UTC")
    func validUntilInStoreTime() async throws {
        try await withApp(clock: TestClock("2027-03-26T10:00:00Z")) { app in
            let (store, _) = try await app.storeWithCalendar(TestApp.everyDay(zone: "America/Jamaica"))
            let (customer, session) = try await app.customerAccount()
            try await app.fillCart(session, store: store, [(try await app.addProduct(store: store), 1)])
            let order = try await app.checkout(session, slot: "2027-03-26T19:30:00Z").json
            let id = try #require(order["id"].string)
            let expiry = try await Self.expiry(of: id, app)

            let page = try await app.form(.get, "/orders/\(id)", cookie: try await app.consoleCookie(customer))
            #expect(page.status == .ok)
            // Worked out here with Foundation's own calendar, not the console's.
            let jamaica = Self.wallClock(expiry, zone: "America/Jamaica")
            #expect(page.text.contains(#"valid until <span id="receipt-expiry">\#(jamaica) (UTC-05:00)</span>."#), "\(page.text)")
            #expect(!page.text.contains(Self.wallClock(expiry, zone: "UTC")))

            let plain = try await app.createStore()
            let (other, otherSession) = try await app.customerAccount()
            try await app.fillCart(otherSession, store: plain, [(try await app.addProduct(store: plain), 1)])
            let plainOrder = try #require(try await app.checkout(otherSession).json["id"].string)
            let plainPage = try await app.form(.get, "/orders/\(plainOrder)", cookie: try await app.consoleCookie(other))
            let utc = Self.wallClock(try await Self.expiry(of: plainOrder, app), zone: "UTC")
            #expect(plainPage.text.contains(#"valid until <span id="receipt-expiry">\#(utc) (UTC)</span>."#), "\(plainPage.text)")
        }
    }

    static func expiry(of order: String, _ app: TestApp) async throws -> Date {
        let seconds = try await sql(
            "SELECT extract(epoch FROM expires_at)::bigint FROM pickup_tokens WHERE order_id = $1", [order], on: app.database)[0][0]
        return Date(timeIntervalSince1970: try #require(seconds.flatMap { TimeInterval($0) }))
    }

    /// `Fri 26 Mar 2027 14:30` in `zone`.
    static func wallClock(_ date: Date, zone: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: zone)
        formatter.dateFormat = "EEE d MMM yyyy HH:mm"
        return formatter.string(from: date)
    }
}
