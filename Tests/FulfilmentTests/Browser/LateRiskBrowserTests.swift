import Foundation
import Logging
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Issue 47, "ready on time", as the store's staff see it: the board puts the soonest ready-by
/// first, says at risk in amber and late in red in words on the store's clock, fits a phone, and
/// changes by itself when the late-risk sweep announces an order at risk.
@Suite(
    "The late-risk board in a browser",
    .enabled(if: WebDriver.available, "chromium and chromium-driver are not installed (make test installs them)"))
struct LateRiskBrowserTests {
    @Test("late in red and at risk in amber, in words with the zone named, soonest ready-by first", .timeLimit(.minutes(3)), arguments: [360, 1280])
    func board(width: Int) async throws {
        let clock = TestClock("2027-03-26T10:00:00Z")
        try await withApp(clock: clock) { app in
            let (store, _) = try await app.storeWithCalendar(TestApp.everyDay(capacity: 4))
            let staff = try await app.storeAccount(.staff, store: store)
            var numbers: [Int] = []
            // Booked later slot first: the board still lists the sooner ready-by first.
            for slot in ["2027-03-26T12:30:00Z", "2027-03-26T12:00:00Z"] {
                let (customer, _) = try await app.shopper(at: store)
                numbers.append(try #require(try await app.checkout(customer, slot: slot).json["number"].int))
            }
            // 12:14: the 12:00 order (ready by 11:45) is late by 29 minutes; the 12:30 one (ready
            // by 12:15) waits behind it and cannot be packed in the minute left.
            clock.set("2027-03-26T12:14:00Z")
            try await withBrowser(width: width, height: 1200, mobile: width == 360) { browser in
                try await browser.signIn(staff, at: app.baseURL)
                try await browser.open(app.baseURL + "/console/orders")
                try await browser.waitFor("#board-pending")
                #expect(try await browser.text("#late-by-\(numbers[1])") == "Late by 29 min")
                #expect(try await browser.text("#at-risk-\(numbers[0])") == "At risk: ready by 12:15")
                #expect(try await browser.text("main").contains("Times are on the store's clock (Europe/London)"))
                let pending = try await browser.text("#board-pending")
                let late = try #require(pending.range(of: "Late by 29 min"))
                let risky = try #require(pending.range(of: "At risk: ready by 12:15"))
                #expect(late.lowerBound < risky.lowerBound, "the sooner ready-by first")
                // Red and amber: the style sheet's colours, not only the words.
                let colours =
                    try await browser.script(
                        """
                        return [getComputedStyle(document.getElementById('late-by-\(numbers[1])')).color,
                                getComputedStyle(document.getElementById('at-risk-\(numbers[0])')).color];
                        """) as? [String]
                #expect(colours == ["rgb(163, 22, 26)", "rgb(138, 83, 0)"], "\(colours ?? [])")
                if width == 360 { try await PhoneWidthBrowserTests.fits(browser, "late-risk-board") }
            }
        }
    }

    @Test("an open board shows an order at risk when the sweep announces it, without a reload", .timeLimit(.minutes(3)))
    func boardFollowsTheSweep() async throws {
        let clock = TestClock("2027-03-26T10:00:00Z")
        try await withApp(clock: clock) { app in
            let (store, _) = try await app.storeWithCalendar(TestApp.everyDay(capacity: 4))
            let staff = try await app.storeAccount(.staff, store: store)
            let (customer, _) = try await app.shopper(at: store)
            let number = try #require(try await app.checkout(customer, slot: "2027-03-26T12:00:00Z").json["number"].int)
            try await withBrowser { browser in
                try await browser.signIn(staff, at: app.baseURL)
                try await browser.open(app.baseURL + "/console/orders")
                try await browser.waitFor("#board-pending")
                try await browser.waitFor("body[data-live=open]")
                _ = try await browser.script("window.stillTheSamePage = true")
                #expect(try await browser.count("#at-risk-\(number)") == 0)
                // A minute before its ready-by time (11:45) it is at risk; an instance's sweep says so.
                clock.set("2027-03-26T11:44:00Z")
                let announced = try await app.withDatabase {
                    try await LateRisk(database: $0).sweep(now: clock.now, logger: Logger(label: "test"))
                }
                #expect(announced == 1)
                try await browser.waitFor("the at-risk order", attempts: 100) { (try? await browser.find("#at-risk-\(number)")) != nil }
                #expect(try await browser.text("#at-risk-\(number)") == "At risk: ready by 11:45")
                #expect(try await browser.script("return window.stillTheSamePage === true") as? Bool == true)
            }
        }
    }
}
