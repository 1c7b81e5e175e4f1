import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

@Suite("The coupons page in a browser", .enabled(if: WebDriver.available, "chromium and chromium-driver are not installed (make test installs them)"))
struct CouponBrowserTests {
    @Test(
        "a manager finds Coupons in the navigation, sees the store's and the chain's with redemptions, makes one, is refused a taken code, ends one; staff get no page",
        .timeLimit(.minutes(3)))
    func coupons() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let manager = try await app.storeAccount(.manager, store: store, name: "Morgan Manager")
            let staff = try await app.storeAccount(.staff, store: store)
            try await sql(
                """
                INSERT INTO coupons (store_id, code, description, kind, percent_basis_points, currency, redemption_limit, redeemed)
                VALUES (NULL, 'CHAIN5', 'Chain-wide', 'percent', 500, NULL, 100, 3)
                """, on: app.database)

            try await withBrowser { browser in
                try await browser.signIn(manager, at: app.baseURL)
                try await browser.open(app.baseURL + "/console/stock")
                try await browser.click("a[href='/console/coupons']")
                try await browser.waitFor("#coupons")
                #expect(try await browser.text("#coupon-chain5-chain").contains("3 of 100"))
                #expect(try await browser.text("#coupon-chain5-chain").contains("5 %"))

                try await browser.type("Welcome10", into: "#new-coupon input[name=code]")
                try await browser.type("Ten off", into: "#new-coupon input[name=description]")
                try await browser.type("12.5", into: "#new-coupon input[name=percentOff]")
                try await browser.type("2000", into: "#new-coupon input[name=minimumSpend]")
                try await browser.type("1\n", into: "#new-coupon input[name=perCustomerLimit]")
                try await browser.waitFor("the new coupon") { try await browser.text("#coupon-note") == "Coupon Welcome10 made." }
                let row = try await browser.text("#coupon-welcome10-store")
                #expect(row.contains("12.50 %") && row.contains("spend JMD 2,000.00+") && row.contains("1 per customer"), "\(row)")
                try await browser.snapshot("coupons")

                try await browser.type("WELCOME10", into: "#new-coupon input[name=code]")
                try await browser.type("5\n", into: "#new-coupon input[name=percentOff]")
                try await browser.waitFor("the refusal") { try await browser.text(".notice-refused").contains("has this code") }

                try await browser.click("#coupon-welcome10-store button")
                try await browser.waitFor("the end") { try await browser.text("#coupon-note") == "Coupon Welcome10 ended." }
                #expect(try await browser.text("#coupon-welcome10-store").contains("ended"))

                try await browser.click("#sign-out")
                try await browser.waitFor("#sign-in")
                try await browser.signIn(staff, at: app.baseURL)
                try await browser.open(app.baseURL + "/console/coupons")
                try await browser.waitFor(".notice-refused")
                #expect(try await browser.text("h1") == "Not for you")
            }
            let made = try await sql(
                "SELECT code, percent_basis_points, minimum_spend, per_customer_limit, ended_at IS NOT NULL FROM coupons WHERE store_id = $1",
                [store], on: app.database)
            #expect(made == [["Welcome10", "1250", "200000", "1", "t"]])
        }
    }
}
