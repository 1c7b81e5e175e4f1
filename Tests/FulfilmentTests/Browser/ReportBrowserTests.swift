import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Issue 46 in Chromium: a manager opens Reports and sees how the store did, as a chart drawn on
/// the server with its table and the same numbers as CSV; the chain's admin chooses the store
/// first. At 360 px and at 1280 px.
@Suite(
    "Reports in Chromium", .enabled(if: WebDriver.available, "chromium and chromium-driver are not installed (make test installs them)"))
struct ReportBrowserTests {
    @Test(
        "a manager reads a week of sales: chart, totals, table and CSV; the admin chooses a store", .timeLimit(.minutes(4)), arguments: [360, 1280])
    func salesReport(width: Int) async throws {
        try await withApp { app in
            let store = try await app.createStore(name: "Half Way Tree")
            let manager = try await app.storeAccount(.manager, store: store, name: "Mo Manager")
            let admin = try await app.signInAdmin()
            for (index, (price, day)) in [(1500, "2026-11-02"), (2500, "2026-11-02"), (4000, "2026-11-05")].enumerated() {
                let id = try await app.placeOrder(store: store, price: price).1["id"].string!
                try await sql(
                    "UPDATE orders SET created_at = $2::timestamptz WHERE id = $1", [id, "\(day)T1\(index):15:00Z"], on: app.database)
            }
            let week = "from=2026-11-01&to=2026-11-07"
            try await withBrowser(width: width, height: 900, mobile: width < 800) { browser in
                try await browser.signIn(manager, at: app.baseURL)
                try await browser.click("a[href='/console/reports/sales']")
                try await browser.waitFor("#sales-by-day")
                try await ShopBrowserTests.checkPage(browser, "console-report-default", width: width)
                try await browser.open(app.baseURL + "/console/reports/sales?\(week)")
                try await browser.waitFor("#report-totals")
                #expect(try await browser.text("#total-orders") == "3")
                #expect(try await browser.text("#total-sales") == "JMD 80.00")
                #expect(try await browser.text("#average-basket") == "JMD 26.67")
                #expect(try await browser.count("#sales-by-day rect") == 7)
                #expect(try await browser.count("#orders-by-hour rect") == 24)
                #expect(try await browser.text("#sales-by-day .chart-top").contains("Mon 2 Nov 2026, JMD 40.00"))
                let chartWidth =
                    try await browser.script("return document.querySelector('#sales-by-day svg').getBoundingClientRect().width") as? Double
                #expect((chartWidth ?? 0) > Double(width) * 0.7, "the chart takes the page's width")
                try await browser.click("#days-table summary")
                #expect(try await browser.text("#days-table tbody tr:nth-child(2)").contains("JMD 40.00"))
                try await ShopBrowserTests.checkPage(browser, "console-report-week", width: width)
                #expect(try await browser.attribute("#csv-days", "href")?.contains("by=day") == true)
            }
            let cookie = try await app.consoleCookie(manager)
            let csv = try await app.form(.get, "/console/reports/sales.csv?\(week)&by=day", cookie: cookie)
            #expect(csv.status == .ok)
            #expect(csv.headers[.contentType]?.hasPrefix("text/csv") == true)
            let lines = csv.text.split(separator: "\r\n").map(String.init)
            #expect(lines.first == "date,orders,sales (JMD),average basket (JMD),cancelled")
            #expect(lines.count == 8)
            #expect(lines[2] == "2026-11-02,2,40.00,20.00,0")
            #expect(lines[5] == "2026-11-05,1,40.00,40.00,0")
            let hours = try await app.form(.get, "/console/reports/sales.csv?\(week)&by=hour", cookie: cookie)
            #expect(hours.text.split(separator: "\r\n").count == 25)
            #expect(try await app.form(.get, "/console/reports/sales.csv?from=nonsense", cookie: cookie).status == .unprocessableContent)

            // The admin has no store of their own: they choose one.
            let adminUser = ConsoleUser(
                email: try await sql("SELECT email FROM users WHERE id = $1", [admin.userID], on: app.database)[0][0]!, password: "admin password",
                name: "Admin")
            try await withBrowser(width: width, height: 900, mobile: width < 800) { browser in
                try await browser.signIn(adminUser, at: app.baseURL)
                try await browser.open(app.baseURL + "/console/reports/sales")
                try await browser.waitFor("#report-store")
                #expect(try await browser.count("#report-totals") == 0)
                try await browser.open(app.baseURL + "/console/reports/sales?store=\(store)&\(week)")
                try await browser.waitFor("#report-totals")
                #expect(try await browser.text("#total-orders") == "3")
            }
        }
    }

    @Test(
        "a manager goes from sales to on time by the reports' nav: shares per day and slot hour, durations, table and CSV",
        .timeLimit(.minutes(4)), arguments: [360, 1280])
    func onTimeReport(width: Int) async throws {
        try await withApp { app in
            let store = try await app.createStore(name: "Half Way Tree")
            let manager = try await app.storeAccount(.manager, store: store, name: "Mo Manager")
            let staff = try await app.signIn(role: .staff, store: store)
            // UTC (no calendar): slots at 10:00 on the 2nd, one packed early, one late; 14:00 on the 5th, early.
            for (slot, placed, packed) in [
                ("2026-11-02T10:00:00Z", "2026-11-02T08:00:00Z", "2026-11-02T09:00:00Z"),
                ("2026-11-02T10:00:00Z", "2026-11-02T08:00:00Z", "2026-11-02T10:30:00Z"),
                ("2026-11-05T14:00:00Z", "2026-11-05T12:00:00Z", "2026-11-05T13:00:00Z"),
            ] {
                _ = try await OnTimeReportTests.order(app, store: store, slot: slot, placed: placed, packed: packed, staff: staff)
            }
            let week = "from=2026-11-01&to=2026-11-07"
            try await withBrowser(width: width, height: 900, mobile: width < 800) { browser in
                try await browser.signIn(manager, at: app.baseURL)
                try await browser.open(app.baseURL + "/console/reports/sales?\(week)")
                try await browser.waitFor("#report-nav")
                try await browser.click("#report-nav a[href^='/console/reports/on-time']")
                try await browser.waitFor("#on-time-by-day")
                #expect(try await browser.attribute("#report-from", "value") == "2026-11-01", "the nav keeps the range")
                #expect(try await browser.text("#on-time-scope").contains("without a slot"))
                #expect(try await browser.text("#total-on-time") == "2")
                #expect(try await browser.text("#total-late") == "1")
                #expect(try await browser.text("#on-time-share") == "67%")
                #expect(try await browser.text("#placed-to-ready").contains("median 60.0 min"))
                #expect(try await browser.count("#on-time-by-day rect") == 7)
                #expect(try await browser.count("#on-time-by-hour rect") == 24)
                let totals = try await browser.text("#report-totals")
                #expect(totals.contains("(UTC)") || totals.contains("(GMT)"), "the zone is named: \(totals)")
                let chartWidth =
                    try await browser.script("return document.querySelector('#on-time-by-day svg').getBoundingClientRect().width") as? Double
                #expect((chartWidth ?? 0) > Double(width) * 0.7, "the chart takes the page's width")
                try await browser.click("#hours-table summary")
                #expect(try await browser.text("#hours-table tbody tr:nth-child(11)").contains("50%"))
                try await ShopBrowserTests.checkPage(browser, "console-report-on-time", width: width)
            }
            let cookie = try await app.consoleCookie(manager)
            let csv = try await app.form(.get, "/console/reports/on-time.csv?\(week)&by=day", cookie: cookie)
            #expect(csv.status == .ok)
            #expect(csv.headers[.contentType]?.hasPrefix("text/csv") == true)
            let lines = csv.text.split(separator: "\r\n").map(String.init)
            #expect(lines.first == "date (slot start),on time,late,share on time,slot to come,cancelled")
            #expect(lines.count == 8)
            #expect(lines[2] == "2026-11-02,1,1,0.5000,0,0")
            #expect(lines[3] == "2026-11-03,0,0,,0,0")
            let hours = try await app.form(.get, "/console/reports/on-time.csv?\(week)&by=hour", cookie: cookie)
            #expect(hours.text.split(separator: "\r\n").map(String.init).dropFirst(11).first == "10:00,1,1,0.5000,0,0")
            #expect(try await app.form(.get, "/console/reports/on-time.csv?from=nonsense", cookie: cookie).status == .unprocessableContent)
        }
    }

    @Test(
        "a manager reads the wait from I'm here to hand-over by the hour they arrived: chart, totals, table and CSV",
        .timeLimit(.minutes(4)), arguments: [360, 1280])
    func deskReport(width: Int) async throws {
        try await withApp { app in
            let store = try await app.createStore(name: "Half Way Tree")
            let manager = try await app.storeAccount(.manager, store: store, name: "Mo Manager")
            let staff = try await app.signIn(role: .staff, store: store)
            // UTC (no calendar): at 17:00 on the 3rd, waits of 4 and 12 minutes; one still waiting.
            for (arrived, collected) in [
                ("2026-11-03T17:05:00Z", "2026-11-03T17:09:00Z"), ("2026-11-03T17:30:00Z", "2026-11-03T17:42:00Z"),
                ("2026-11-03T17:50:00Z", nil),
            ] {
                _ = try await OnTimeReportTests.order(
                    app, store: store, slot: nil, placed: "2026-11-03T12:00:00Z", packed: "2026-11-03T13:00:00Z", collected: collected,
                    arrived: arrived, staff: staff)
            }
            let week = "from=2026-11-01&to=2026-11-07"
            try await withBrowser(width: width, height: 900, mobile: width < 800) { browser in
                try await browser.signIn(manager, at: app.baseURL)
                try await browser.open(app.baseURL + "/console/reports/on-time?\(week)")
                try await browser.waitFor("#report-nav")
                try await browser.click("#report-nav a[href^='/console/reports/desk']")
                try await browser.waitFor("#wait-by-hour")
                #expect(try await browser.text("#total-arrived") == "3")
                #expect(try await browser.text("#total-handed-over") == "2")
                #expect(try await browser.text("#wait-p50") == "8.0 min")
                #expect(try await browser.count("#wait-by-hour rect") == 24)
                try await browser.click("#hours-table summary")
                #expect(try await browser.text("#hours-table tbody tr:nth-child(18)").contains("8.0 min"))
                try await ShopBrowserTests.checkPage(browser, "console-report-desk", width: width)
            }
            let cookie = try await app.consoleCookie(manager)
            let csv = try await app.form(.get, "/console/reports/desk.csv?\(week)", cookie: cookie)
            #expect(csv.status == .ok)
            let lines = csv.text.split(separator: "\r\n").map(String.init)
            #expect(lines.count == 25)
            #expect(lines[18] == "17:00,3,2,8.0,11.2")
            #expect(lines[1] == "00:00,0,0,,")
        }
    }
}
