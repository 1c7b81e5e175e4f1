import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Issue 46: at a Jamaican store the console showed UTC (pick lists' created time, sales' From
/// and Until) and read a sale's times as UTC. Everything a person reads or types on a store's
/// console pages is on the store's clock, with the offset named; a store without a calendar
/// stays on UTC, and says so.
@Suite("The console on the store's clock")
struct StoreClockTests {
    @Test("a Jamaican manager types a sale's window in Kingston time, and the sales and pick lists read in it, the offset named")
    func jamaicanStore() async throws {
        try await withApp { app in
            let (store, managerAPI) = try await app.storeWithCalendar(TestApp.everyDay(zone: "America/Jamaica"))
            let manager = try await app.storeAccount(.manager, store: store)
            let product = try await app.createProduct(store: store, name: "Ackee", price: 100_000)
            let cookie = try await app.consoleCookie(manager)

            let page = try await app.form(.get, "/console/sales", cookie: cookie)
            #expect(page.text.contains("From (store time, UTC-05:00)") && page.text.contains("Until (store time, UTC-05:00)"), "\(page.text)")
            let csrf = try await app.csrfToken(on: "/console/sales", cookie: cookie)
            let created = try await app.form(
                .post, "/console/sales",
                ["_csrf": csrf, "productId": product, "price": "800.00", "startsAt": "2027-12-01T09:30", "endsAt": "2027-12-08T21:00"],
                cookie: cookie)
            #expect(created.status == .ok, "\(created.text)")
            // 09:30 in Kingston is 14:30 UTC; 21:00 is 02:00 the next day.
            let stored = try await sql(
                "SELECT to_char(starts_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI'), to_char(ends_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') FROM store_sales WHERE store_id = $1",
                [store], on: app.database)
            #expect(stored == [["2027-12-01 14:30", "2027-12-09 02:00"]])
            let listed = try await app.form(.get, "/console/sales", cookie: cookie).text
            #expect(listed.contains("Wed 1 Dec 2027 09:30 (UTC-05:00)") && listed.contains("Wed 8 Dec 2027 21:00 (UTC-05:00)"), "\(listed)")
            #expect(!listed.contains(" UTC<"), "no bare UTC time on a Jamaican store's page")

            // A pick list made at 10:00 UTC reads 05:00 in Kingston.
            let customer = try await app.registerCustomer()
            let order = try await app.createPendingOrder(store: store, customer: customer.userID, lines: [(product, 1)])
            let list = try #require(
                try await app.request(.post, "/v1/stores/\(store)/pick-lists", json: ["orderIds": [.string(order)]], token: managerAPI.token)
                    .json["id"].string)
            try await sql("UPDATE pick_lists SET created_at = '2031-12-01 10:00:00+00' WHERE id = $1", [list], on: app.database)
            let lists = try await app.form(.get, "/console/pick-lists", cookie: cookie).text
            #expect(lists.contains("Mon 1 Dec 2031 05:00 (UTC-05:00)"), "\(lists)")
        }
    }

    @Test("a store without a calendar stays on UTC, and its forms say so")
    func noCalendar() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let manager = try await app.storeAccount(.manager, store: store)
            let cookie = try await app.consoleCookie(manager)
            let page = try await app.form(.get, "/console/sales", cookie: cookie).text
            #expect(page.contains("From (UTC)") && page.contains("Until (UTC)"))
        }
    }
}
