import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Issue 46 in Chromium, as a manager runs their team: add a new starter, disable someone whose
/// phone was stolen (they are signed out at once), let them back, and erase someone who left, only
/// after saying so. At 360 px and at 1280 px. The API's list answers the same, for the store's
/// manager only.
@Suite(
    "People: a manager's team in Chromium",
    .enabled(if: WebDriver.available, "chromium and chromium-driver are not installed (make test installs them)"))
struct PeopleBrowserTests {
    @Test("add, disable (signed out at once), enable and erase, each said; never oneself", .timeLimit(.minutes(4)), arguments: [360, 1280])
    func people(width: Int) async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let manager = try await app.storeAccount(.manager, store: store, name: "Morgan Manager")
            let shelf = try await app.signIn(role: .staff, store: store)
            let leaver = try await app.signIn(role: .staff, store: store)
            try await sql("UPDATE users SET name = 'Lee Leaver' WHERE id = $1", [leaver.userID], on: app.database)
            let managerID = try await sql("SELECT id FROM users WHERE email = $1", [manager.email], on: app.database)[0][0]!

            try await withBrowser(width: width, height: 900, mobile: width < 800) { browser in
                try await browser.signIn(manager, at: app.baseURL)
                try await browser.click("a[href='/console/people']")
                try await browser.waitFor("#people")
                #expect(try await browser.count("#people tbody tr") == 3)
                #expect(try await browser.text("#person-\(managerID)").contains("You"))
                #expect(try await browser.count("#disable-\(managerID)") == 0, "a manager cannot lock themselves out")
                try await ShopBrowserTests.checkPage(browser, "console-people", width: width)

                try await browser.type("Nia New", into: "#person-name")
                try await browser.type("nia.new.\(width)@example.com", into: "#person-email")
                try await browser.type("a long enough password", into: "#person-password")
                try await browser.click("#add-person-button")
                try await browser.waitFor("#people-note")
                #expect(try await browser.text("#people-note").hasPrefix("Nia New can now sign in as staff"))
                #expect(try await browser.count("#people tbody tr") == 4)
                // No password: invited by email to choose their own.
                try await browser.type("Ivy Invited", into: "#person-name")
                try await browser.type("ivy.invited.\(width)@example.com", into: "#person-email")
                try await browser.click("#add-person-button")
                try await browser.waitFor("the invitation") { try await browser.text("#people-note").hasPrefix("Ivy Invited is invited") }
                #expect(try await browser.count("#people tbody tr") == 5)

                try await browser.click("#disable-\(shelf.userID)")
                try await browser.waitFor("#enable-\(shelf.userID)")
                #expect(try await browser.text("#people-note").contains("every session they had has ended"))
                #expect(try await app.request(.get, "/v1/me", token: shelf.token).status == .unauthorized, "signed out at once")
                try await browser.click("#enable-\(shelf.userID)")
                try await browser.waitFor("#disable-\(shelf.userID)")

                // Erasing asks first.
                try await browser.click("#erase-\(leaver.userID)")
                try await browser.waitFor("#people-note")
                #expect(try await browser.text("#people-note").contains("Tick the box"))
                #expect(try await browser.count("#person-\(leaver.userID)") == 1)
                try await browser.click("#confirm-erase-\(leaver.userID)")
                try await browser.click("#erase-\(leaver.userID)")
                try await browser.waitFor("the erasure") { try await browser.text("#people-note").hasPrefix("The account is erased") }
                #expect(try await browser.text("#people").contains("Lee Leaver") == false)
            }
            #expect(
                try await sql("SELECT role, store_id FROM users WHERE email = $1", ["nia.new.\(width)@example.com"], on: app.database) == [
                    ["staff", store]
                ])

            // The API's list: the store's manager only.
            let apiManager = try await app.signIn(role: .manager, store: store)
            let listed = try await app.request(.get, "/v1/stores/\(store)/staff", token: apiManager.token)
            #expect(listed.status == .ok)
            #expect(listed.json["nextCursor"] == .null)
            #expect(listed.json["items"].array.first?["role"].string == "manager", "managers first")
            #expect(listed.json["items"].array.contains { $0["name"].string == "Nia New" })
            let staffAgain = try await app.signIn(role: .staff, store: store)  // shelf's own sessions ended when disabled
            #expect(try await app.request(.get, "/v1/stores/\(store)/staff", token: staffAgain.token).status == .forbidden)
            let otherManager = try await app.signIn(role: .manager, store: try await app.createStore())
            #expect([403, 404].contains(try await app.request(.get, "/v1/stores/\(store)/staff", token: otherManager.token).status.code))
        }
    }
}
