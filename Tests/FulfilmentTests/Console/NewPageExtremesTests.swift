import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Issue 46's new pages and parameters fed what a typo, a paste or a hostile client sends: the
/// largest and smallest 64-bit numbers, 1e308 and NaN. Each is a sentence and a 4xx, never a
/// trap: the service still answers afterwards, and nothing was written.
@Suite("The console's new pages take extreme numbers without stopping")
struct NewPageExtremesTests {
    static let extremes = ["9223372036854775807", "-9223372036854775808", "1e308", "NaN"]

    @Test("refund amount, calendar numbers, report dates, search text: 4xx each, the service alive, nothing written")
    func extremes() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let staff = try await app.signIn(role: .staff, store: store)
            let manager = try await app.storeAccount(.manager, store: store)
            let (_, order, _) = try await app.placeOrder(store: store, price: 1000)
            let id = order["id"].string!
            #expect(try await app.transition(id, to: "cancelled", by: staff).status == .ok)
            let cookie = try await app.consoleCookie(manager)
            let csrf = try await app.csrfToken(on: "/console/orders/\(id)", cookie: cookie)
            for value in Self.extremes {
                let refund = try await app.form(
                    .post, "/console/orders/\(id)/refunds", ["_csrf": csrf, "amount": value, "currency": "JMD"], cookie: cookie)
                #expect((400..<500).contains(refund.status.code), "refund \(value): \(refund.status)")
                let fields = [
                    "_csrf": csrf, "timeZone": "UTC", "capacity": value, "slotMinutes": value, "leadMinutes": value, "horizonDays": value,
                    "graceMinutes": value, "readyLeadMinutes": value, "w1a-opens": "08:00", "w1a-closes": "12:00",
                ]
                let calendar = try await app.form(.post, "/console/settings/calendar", fields, cookie: cookie)
                #expect((400..<500).contains(calendar.status.code), "calendar \(value): \(calendar.status)")
                let encoded = value.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
                for report in ["sales", "on-time", "desk", "picking", "products", "coupons"] {
                    let page = try await app.form(.get, "/console/reports/\(report)?from=\(encoded)&to=\(encoded)", cookie: cookie)
                    #expect(page.status == .unprocessableContent, "\(report) report \(value)")
                }
                let search = try await app.form(.get, "/console/order-search?q=\(encoded)", cookie: cookie)
                #expect(search.status == .ok, "a number is a search like any text: \(value)")
                let api = try await app.request(.get, "/v1/stores/\(store)/orders?q=\(encoded)&limit=\(encoded)", token: staff.token)
                #expect(api.status == .unprocessableContent, "limit \(value)")
            }
            #expect(try await app.request(.get, "/healthz").status == .ok)
            #expect(try await sql("SELECT count(*) FROM refunds", on: app.database) == [["0"]])
            #expect(try await sql("SELECT count(*) FROM store_calendars WHERE store_id = $1", [store], on: app.database) == [["0"]])
        }
    }
}
