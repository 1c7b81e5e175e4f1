import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Issue 46 in Chromium: a manager keeps the store's pickup calendar from the console, not with
/// curl. A store without one gets one; a lunch closing is two ranges; Christmas is a closure; a
/// mistake comes back with what was typed and which field is wrong; staff may read, not change.
/// The same page plans the store's pickers (issue 47's rota).
@Suite(
    "Store settings: the pickup calendar in Chromium",
    .enabled(if: WebDriver.available, "chromium and chromium-driver are not installed (make test installs them)"))
struct SettingsBrowserTests {
    @Test(
        "a first calendar, a lunch closing and Christmas saved; an overlap refused with the typing kept", .timeLimit(.minutes(4)),
        arguments: [360, 1280])
    func calendar(width: Int) async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let manager = try await app.storeAccount(.manager, store: store)
            let staff = try await app.storeAccount(.staff, store: store)
            try await withBrowser(width: width, height: 900, mobile: width < 800) { browser in
                try await browser.signIn(manager, at: app.baseURL)
                try await browser.click("a[href='/console/settings']")
                try await browser.waitFor("#calendar-form")
                #expect(try await browser.count("#no-calendar") == 1)
                try await ShopBrowserTests.checkPage(browser, "console-settings", width: width)

                try await browser.clear("#timeZone")
                try await browser.type("America/Jamaica", into: "#timeZone")
                try await browser.clear("#capacity")
                try await browser.type("12", into: "#capacity")
                // Issue 47: orders packed 20 minutes before their slot.
                #expect(try await browser.attribute("#readyLeadMinutes", "value") == "15")
                try await browser.clear("#readyLeadMinutes")
                try await browser.type("20", into: "#readyLeadMinutes")
                // Monday: 08:00–12:00 and 14:00–18:00. Time inputs take the digits as typed.
                for (field, time) in [("w1a-opens", "0800AM"), ("w1a-closes", "1200PM"), ("w1b-opens", "0200PM"), ("w1b-closes", "0600PM")] {
                    _ = try await browser.script(
                        "document.getElementById(arguments[0]).value = arguments[1]",
                        [field, ["0800AM": "08:00", "1200PM": "12:00", "0200PM": "14:00", "0600PM": "18:00"][time]!])
                }
                try await browser.type("2026-12-25 Christmas Day", into: "#closures")
                try await browser.click("#save-calendar")
                try await browser.waitFor("#settings-note")
                #expect(try await browser.text("#settings-note").hasPrefix("Saved: open 1 day a week, 30-minute slots of 12 orders, 1 closure"))
                #expect(try await browser.count("#no-calendar") == 0)
                #expect(try await browser.attribute("#w1b-closes", "value") == "18:00")

                // Tuesday 09:00–17:00 and 16:00–18:00 overlap: refused, the typing kept.
                _ = try await browser.script(
                    """
                    [['w2a-opens','09:00'],['w2a-closes','17:00'],['w2b-opens','16:00'],['w2b-closes','18:00']]
                      .forEach(function (p) { document.getElementById(p[0]).value = p[1]; });
                    """)
                try await browser.click("#save-calendar")
                try await browser.waitFor("the refusal") { try await browser.attribute("#settings-note", "class")?.contains("refused") == true }
                #expect(try await browser.attribute("#w2b-opens", "value") == "16:00", "what was typed comes back")
                #expect(try await browser.attribute("#capacity", "value") == "12")

                // The substitution policy: the picker chooses, never dearer.
                try await browser.click("#default-best_match")
                try await browser.click("#rule-cap")
                try await browser.click("#save-substitutions")
                try await browser.waitFor("the policy") { try await browser.text("#settings-note").hasPrefix("Saved: the picker chooses") }
                #expect(try await browser.script("return document.getElementById('default-best_match').checked") as? Bool == true)

                // Issue 47: the rota, two pickers an hour and three on Saturday late morning.
                #expect(try await browser.count("#no-rota") == 1)
                try await browser.clear("#defaultPickers")
                try await browser.type("2", into: "#defaultPickers")
                try await browser.type("saturday 10-12 3", into: "#rotaHours")
                try await browser.click("#save-rota")
                try await browser.waitFor("the rota") { try await browser.text("#settings-note").hasPrefix("Saved: 2 pickers an hour, 2 hours") }
                #expect(try await browser.count("#no-rota") == 0)
            }
            let rota = try await app.request(.get, "/v1/stores/\(store)/rota", token: try await app.signIn(role: .manager, store: store).token)
            #expect(rota.json["defaultPickers"] == 2)
            #expect(rota.json["hours"].array.map { $0["hour"].int } == [10, 11])
            let policy = try await app.request(
                .get, "/v1/stores/\(store)/substitution-policy", token: try await app.signIn(role: .staff, store: store).token)
            #expect(policy.json == ["defaultPreference": "best_match", "priceRule": "cap"], "\(policy.text)")
            let calendar = try await app.request(.get, "/v1/stores/\(store)/calendar", token: try await app.signIn(role: .staff, store: store).token)
            #expect(calendar.json["timeZone"].string == "America/Jamaica")
            #expect(calendar.json["capacity"] == 12)
            #expect(calendar.json["readyLeadMinutes"] == 20)
            #expect(
                calendar.json["openingHours"].array.map { "\($0["weekday"].string ?? "") \($0["opens"].string ?? "")-\($0["closes"].string ?? "")" }
                    == ["monday 08:00-12:00", "monday 14:00-18:00"])
            #expect(calendar.json["closures"].array.map { $0["date"].string } == ["2026-12-25"])

            // Staff read the settings; they cannot save them.
            let cookie = try await app.consoleCookie(staff)
            let read = try await app.form(.get, "/console/settings", cookie: cookie)
            #expect(read.status == .ok && read.text.contains("A manager changes these."))
            let csrf = try await app.csrfToken(on: "/console/settings", cookie: cookie)
            let tried = try await app.form(.post, "/console/settings/calendar", ["_csrf": csrf, "timeZone": "UTC", "capacity": "1"], cookie: cookie)
            #expect(tried.status == .forbidden)
        }
    }
}
