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

    /// The chain's admin as the console signs them in (their store chosen on each report).
    static func admin(_ app: TestApp) async throws -> ConsoleUser {
        let admin = try await app.signInAdmin()
        return ConsoleUser(
            email: try await sql("SELECT email FROM users WHERE id = $1", [admin.userID], on: app.database)[0][0]!, password: "admin password",
            name: "Admin")
    }

    @Test(
        "a manager and the admin read picking by the reports' nav: lines per hour per day, short picks, substitutes, tables and CSV",
        .timeLimit(.minutes(4)), arguments: [360, 1280])
    func pickingReport(width: Int) async throws {
        try await withApp { app in
            let store = try await app.createStore(name: "Half Way Tree")
            let manager = try await app.storeAccount(.manager, store: store, name: "Mo Manager")
            let staff = try await app.signIn(role: .staff, store: store)
            let customer = try await app.registerCustomer()
            let ackee = try await app.createProduct(store: store, name: "Ackee, \"salted\"")
            let bammy = try await app.createProduct(store: store, name: "Bammy")
            let sorrel = try await app.createProduct(store: store, name: "Sorrel")
            let first = try await app.createPendingOrder(store: store, customer: customer.userID, lines: [(ackee, 1), (bammy, 1)])
            let second = try await app.createPendingOrder(store: store, customer: customer.userID, lines: [(ackee, 1)])
            // UTC (no calendar): 10:00–10:20 on the 3rd, 3 lines (Bammy short): 9 an hour.
            _ = try await PickingReportTests.pickList(
                app, store: store, by: staff, made: "2026-11-03T10:00:00Z", completed: "2026-11-03T10:20:00Z",
                picks: [(first, ackee, false), (first, bammy, true), (second, ackee, false)])
            try await PickingReportTests.substitute(app, store: store, order: second, product: ackee, with: sorrel, status: "accepted")
            let week = "from=2026-11-01&to=2026-11-07"
            try await withBrowser(width: width, height: 900, mobile: width < 800) { browser in
                try await browser.signIn(manager, at: app.baseURL)
                try await browser.open(app.baseURL + "/console/reports/desk?\(week)")
                try await browser.waitFor("#report-nav")
                try await browser.click("#report-nav a[href^='/console/reports/picking']")
                try await browser.waitFor("#lines-per-hour-by-day")
                #expect(try await browser.attribute("#report-from", "value") == "2026-11-01", "the nav keeps the range")
                #expect(try await browser.text("#total-lists") == "1")
                #expect(try await browser.text("#total-lines") == "3")
                #expect(try await browser.text("#lines-per-hour") == "9.0")
                #expect(try await browser.text("#total-short") == "1 (33%)")
                #expect(try await browser.text("#subs-accepted") == "1 (100%)")
                #expect(try await browser.count("#lines-per-hour-by-day rect") == 7)
                #expect(try await browser.count("#lines-per-hour-by-day rect title") == 7, "each bar names its figure")
                #expect(try await browser.text("#substituted-table tbody").lowercased().contains("ackee, \"salted\""), "headers are upper case")
                let chartWidth =
                    try await browser.script("return document.querySelector('#lines-per-hour-by-day svg').getBoundingClientRect().width") as? Double
                #expect((chartWidth ?? 0) > Double(width) * 0.7, "the chart takes the page's width")
                try await browser.click("#days-table summary")
                #expect(try await browser.text("#days-table tbody tr:nth-child(3)").contains("9.0"))
                try await ShopBrowserTests.checkPage(browser, "console-report-picking", width: width)
                #expect(try await browser.attribute("#csv-days", "href")?.contains("by=day") == true)
                #expect(try await browser.attribute("#csv-products", "href")?.contains("by=product") == true)
            }
            let cookie = try await app.consoleCookie(manager)
            let csv = try await app.form(.get, "/console/reports/picking.csv?\(week)&by=day", cookie: cookie)
            #expect(csv.status == .ok)
            #expect(csv.headers[.contentType]?.hasPrefix("text/csv") == true)
            #expect(csv.headers[.contentDisposition]?.contains("picking-by-day-2026-11-01-2026-11-07.csv") == true)
            let lines = csv.text.split(separator: "\r\n").map(String.init)
            #expect(lines.first == "date (list completed),pick lists,lines,minutes,lines per hour,closed short,share short")
            #expect(lines.count == 8)
            #expect(lines[3] == "2026-11-03,1,3,20.0,9.0,1,0.3333")
            #expect(lines[1] == "2026-11-01,0,0,0.0,,0,")
            let products = try await app.form(.get, "/console/reports/picking.csv?\(week)&by=product", cookie: cookie)
            #expect(
                products.text.split(separator: "\r\n").map(String.init) == [
                    "product,product id,substituted,accepted,refused,awaiting", "\"Ackee, \"\"salted\"\"\",\(ackee),1,1,0,0",
                ])
            #expect(try await app.form(.get, "/console/reports/picking.csv?from=nonsense", cookie: cookie).status == .unprocessableContent)

            let admin = try await Self.admin(app)
            try await withBrowser(width: width, height: 900, mobile: width < 800) { browser in
                try await browser.signIn(admin, at: app.baseURL)
                try await browser.open(app.baseURL + "/console/reports/picking")
                try await browser.waitFor("#report-store")
                #expect(try await browser.count("#report-totals") == 0)
                try await browser.open(app.baseURL + "/console/reports/picking?store=\(store)&\(week)")
                try await browser.waitFor("#lines-per-hour-by-day")
                #expect(try await browser.text("#total-lines") == "3")
                #expect(try await browser.count("#lines-per-hour-by-day rect") == 7)
                try await browser.click("#days-table summary")
                #expect(try await browser.text("#days-table tbody tr:nth-child(3)").contains("9.0"))
                try await ShopBrowserTests.checkPage(browser, "console-report-picking-admin", width: width)
                #expect(try await browser.attribute("#csv-days", "href")?.contains("store=\(store)") == true)
            }
            let adminCSV = try await app.form(.get, "/console/reports/picking.csv?store=\(store)&\(week)", cookie: try await app.consoleCookie(admin))
            #expect(adminCSV.status == .ok)
            #expect(adminCSV.text.split(separator: "\r\n").map(String.init)[3] == "2026-11-03,1,3,20.0,9.0,1,0.3333")
        }
    }

    @Test(
        "a manager and the admin read coupons by the reports' nav: orders per coupon, discount, uplift, table and CSV",
        .timeLimit(.minutes(4)), arguments: [360, 1280])
    func couponsReport(width: Int) async throws {
        try await withApp { app in
            let store = try await app.createStore(name: "Half Way Tree")
            let manager = try await app.storeAccount(.manager, store: store, name: "Mo Manager")
            let customer = try await app.registerCustomer()
            let product = try await app.createProduct(store: store, name: "Rice")
            let save10 = try await CouponsReportTests.coupon(app, store: store, code: "SAVE10")
            let chain = try await CouponsReportTests.coupon(app, store: nil, code: "-CHAIN5")
            for (placed, total, coupon, discount) in [
                ("2026-11-02T10:00:00Z", 2000, nil, 0), ("2026-11-02T11:00:00Z", 2700, save10, 300), ("2026-11-03T11:00:00Z", 3300, save10, 300),
                ("2026-11-05T11:00:00Z", 4500, chain, 500),
            ] as [(String, Int, String?, Int)] {
                try await CouponsReportTests.order(
                    app, store: store, customer: customer, product: product, placed: placed, total: total, coupon: coupon, discount: discount)
            }
            let week = "from=2026-11-01&to=2026-11-07"
            try await withBrowser(width: width, height: 900, mobile: width < 800) { browser in
                try await browser.signIn(manager, at: app.baseURL)
                try await browser.open(app.baseURL + "/console/reports/sales?\(week)")
                try await browser.waitFor("#report-nav")
                try await browser.click("#report-nav a[href^='/console/reports/coupons']")
                try await browser.waitFor("#redemptions-by-coupon")
                #expect(try await browser.text("#with-coupon-orders") == "3")
                #expect(try await browser.text("#total-discount") == "JMD 11.00")
                #expect(try await browser.text("#basket-with") == "JMD 35.00")
                #expect(try await browser.text("#basket-without").hasPrefix("JMD 20.00"))
                #expect(try await browser.text("#uplift") == "+75%")
                #expect(try await browser.count("#redemptions-by-coupon rect") == 2)
                #expect(try await browser.count("#redemptions-by-coupon rect title") == 2, "each bar names its figure")
                #expect(try await browser.text("#coupons-table tbody tr:nth-child(1)").contains("SAVE10"))
                let chartWidth =
                    try await browser.script("return document.querySelector('#redemptions-by-coupon svg').getBoundingClientRect().width") as? Double
                #expect((chartWidth ?? 0) > Double(width) * 0.7, "the chart takes the page's width")
                try await ShopBrowserTests.checkPage(browser, "console-report-coupons", width: width)
                #expect(try await browser.attribute("#csv-coupons", "href")?.contains("by=coupon") == true)
            }
            let cookie = try await app.consoleCookie(manager)
            let csv = try await app.form(.get, "/console/reports/coupons.csv?\(week)", cookie: cookie)
            #expect(csv.status == .ok)
            #expect(csv.headers[.contentType]?.hasPrefix("text/csv") == true)
            #expect(
                csv.text.split(separator: "\r\n").map(String.init) == [
                    "coupon,whose,orders,discount (JMD),sales (JMD),average basket (JMD),given back", "SAVE10,store,2,6.00,60.00,30.00,0",
                    "'-CHAIN5,chain,1,5.00,45.00,45.00,0",
                ])
            #expect(try await app.form(.get, "/console/reports/coupons.csv?to=2026-02-30", cookie: cookie).status == .unprocessableContent)

            let admin = try await Self.admin(app)
            try await withBrowser(width: width, height: 900, mobile: width < 800) { browser in
                try await browser.signIn(admin, at: app.baseURL)
                try await browser.open(app.baseURL + "/console/reports/coupons")
                try await browser.waitFor("#report-store")
                #expect(try await browser.count("#report-totals") == 0)
                try await browser.open(app.baseURL + "/console/reports/coupons?store=\(store)&\(week)")
                try await browser.waitFor("#redemptions-by-coupon")
                #expect(try await browser.text("#with-coupon-orders") == "3")
                #expect(try await browser.count("#coupons-table tbody tr") == 2)
                try await ShopBrowserTests.checkPage(browser, "console-report-coupons-admin", width: width)
            }
            let adminCSV = try await app.form(.get, "/console/reports/coupons.csv?store=\(store)&\(week)", cookie: try await app.consoleCookie(admin))
            #expect(adminCSV.status == .ok)
            #expect(adminCSV.text.split(separator: "\r\n").count == 3)
        }
    }

    @Test(
        "a manager and the admin read products by the reports' nav: best sellers chart and table, never collected, out of stock, CSV",
        .timeLimit(.minutes(4)), arguments: [360, 1280])
    func productsReport(width: Int) async throws {
        try await withApp { app in
            let store = try await app.createStore(name: "Half Way Tree")
            let manager = try await app.storeAccount(.manager, store: store, name: "Mo Manager")
            let customer = try await app.registerCustomer()
            let rice = try await app.createProduct(store: store, name: "=Rice, long grain", price: 1000)
            let flour = try await app.createProduct(store: store, name: "Flour", price: 500)
            let sold = try await app.createPendingOrder(store: store, customer: customer.userID, lines: [(rice, 3), (flour, 1)])
            try await ProductsReportTests.place(app, sold, at: "2026-11-02T10:00:00Z")
            let cancelled = try await app.createPendingOrder(store: store, customer: customer.userID, lines: [(flour, 2)])
            try await ProductsReportTests.place(app, cancelled, at: "2026-11-03T10:00:00Z", status: "cancelled")
            _ = try await ProductsReportTests.stock(app, store: store, name: "Ackee", onHand: 0, ledger: (0, "2026-11-02T12:00:00Z"))
            let week = "from=2026-11-01&to=2026-11-07"
            try await withBrowser(width: width, height: 900, mobile: width < 800) { browser in
                try await browser.signIn(manager, at: app.baseURL)
                try await browser.open(app.baseURL + "/console/reports/picking?\(week)")
                try await browser.waitFor("#report-nav")
                try await browser.click("#report-nav a[href^='/console/reports/products']")
                try await browser.waitFor("#best-sellers")
                #expect(try await browser.attribute("#report-to", "value") == "2026-11-07", "the nav keeps the range")
                #expect(try await browser.text("#units-sold").hasPrefix("4"))
                #expect(try await browser.text("#product-sales") == "JMD 35.00")
                #expect(try await browser.text("#units-uncollected").contains("2 units on 1 cancelled order, worth JMD 10.00"))
                #expect(try await browser.text("#out-of-stock-count") == "1")
                #expect(try await browser.count("#best-sellers rect") == 2)
                #expect(try await browser.count("#best-sellers rect title") == 2, "each bar names its figure")
                #expect(
                    try await browser.text("#best-sellers-table tbody tr:nth-child(1)").lowercased().contains("=rice, long grain"),
                    "headers are upper case")
                #expect(try await browser.text("#never-collected-table tbody").lowercased().contains("flour"))
                #expect(try await browser.text("#out-of-stock-table tbody").lowercased().contains("ackee"))
                let chartWidth =
                    try await browser.script("return document.querySelector('#best-sellers svg').getBoundingClientRect().width") as? Double
                #expect((chartWidth ?? 0) > Double(width) * 0.7, "the chart takes the page's width")
                try await ShopBrowserTests.checkPage(browser, "console-report-products", width: width)
                #expect(try await browser.attribute("#csv-best-sellers", "href")?.contains("by=product") == true)
            }
            let cookie = try await app.consoleCookie(manager)
            let csv = try await app.form(.get, "/console/reports/products.csv?\(week)&by=product", cookie: cookie)
            #expect(csv.status == .ok)
            #expect(csv.headers[.contentType]?.hasPrefix("text/csv") == true)
            #expect(
                csv.text.split(separator: "\r\n").map(String.init) == [
                    "product,product id,units,order lines,sales (JMD)", "\"'=Rice, long grain\",\(rice),3,1,30.00", "Flour,\(flour),1,1,5.00",
                ])
            let uncollected = try await app.form(.get, "/console/reports/products.csv?\(week)&by=uncollected", cookie: cookie)
            #expect(uncollected.text.split(separator: "\r\n").map(String.init).last == "Flour,\(flour),2,1,10.00")
            let stock = try await app.form(.get, "/console/reports/products.csv?\(week)&by=stock", cookie: cookie)
            #expect(stock.text.split(separator: "\r\n").map(String.init).first == "product,product id,on hand,held by orders,out since,hours out")
            #expect(stock.text.contains("Ackee,") && stock.text.contains(",0,0,2026-11-02T12:00:00Z,"))
            #expect(
                try await app.form(.get, "/console/reports/products.csv?from=2026-11-08&to=2026-11-01", cookie: cookie).status
                    == .unprocessableContent)

            let admin = try await Self.admin(app)
            try await withBrowser(width: width, height: 900, mobile: width < 800) { browser in
                try await browser.signIn(admin, at: app.baseURL)
                try await browser.open(app.baseURL + "/console/reports/products")
                try await browser.waitFor("#report-store")
                #expect(try await browser.count("#report-totals") == 0)
                try await browser.open(app.baseURL + "/console/reports/products?store=\(store)&\(week)")
                try await browser.waitFor("#best-sellers")
                #expect(try await browser.count("#best-sellers-table tbody tr") == 2)
                try await ShopBrowserTests.checkPage(browser, "console-report-products-admin", width: width)
            }
            let adminCSV = try await app.form(
                .get, "/console/reports/products.csv?store=\(store)&\(week)", cookie: try await app.consoleCookie(admin))
            #expect(adminCSV.status == .ok)
            #expect(adminCSV.text.split(separator: "\r\n").count == 3)
        }
    }
}
