import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Issue 47 in the console: the manager plans the store's pickers on the settings page, a form
/// that posts without script. Every other hour has the default; the hours that differ are one a
/// line (`saturday 10-14 3`). A mistake comes back with what was typed and a sentence; staff do
/// not see the rota.
@Suite("Console: the store's rota on the settings page")
struct RotaFormTests {
    @Test("a manager saves a rota of lines and reads it back as the API keeps it; a wrong line comes back with the typing kept")
    func managerSavesTheRota() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let manager = try await app.storeAccount(.manager, store: store)
            let cookie = try await app.consoleCookie(manager)
            let page = try await app.form(.get, "/console/settings", cookie: cookie)
            #expect(page.text.contains("id=\"rota-form\""))
            #expect(page.text.contains("id=\"no-rota\""), "no rota yet: slots count orders only")
            #expect(page.text.contains("One order takes 60 s, plus 20 s a line and 3 s for each further unit: the defaults"))
            let csrf = try await app.csrfToken(on: "/console/settings", cookie: cookie)

            let saved = try await app.form(
                .post, "/console/settings/rota", ["_csrf": csrf, "defaultPickers": "2", "rotaHours": "Saturday 10-14 3\nfri 17 4\n"],
                cookie: cookie)
            #expect(saved.status == .ok)
            #expect(saved.text.contains("Saved: 2 pickers an hour, 5 hours of the week with their own."))
            #expect(saved.text.contains("id=\"no-rota\"") == false)
            #expect(saved.text.contains("friday 17 4\nsaturday 10-14 3"), "the lines as kept, in week order")
            let api = try await app.request(.get, "/v1/stores/\(store)/rota", token: try await app.signIn(role: .manager, store: store).token)
            #expect(api.json["defaultPickers"].int == 2)
            #expect(
                api.json["hours"].array.map { "\($0["weekday"].string ?? "") \($0["hour"].int ?? -1) \($0["pickers"].int ?? -1)" } == [
                    "friday 17 4", "saturday 10 3", "saturday 11 3", "saturday 12 3", "saturday 13 3",
                ])

            let wrong = try await app.form(
                .post, "/console/settings/rota", ["_csrf": csrf, "defaultPickers": "3", "rotaHours": "saturday 10-25 3"], cookie: cookie)
            #expect(wrong.status == .unprocessableContent)
            #expect(wrong.text.contains("An hour must be a whole number from 1 to 24."))
            #expect(wrong.text.contains(">saturday 10-25 3</textarea>"), "what was typed comes back")
            let twice = try await app.form(
                .post, "/console/settings/rota", ["_csrf": csrf, "defaultPickers": "3", "rotaHours": "monday 9-11 2\nmon 10 1"],
                cookie: cookie)
            #expect(twice.status == .unprocessableContent)
            #expect(twice.text.contains("Monday 10:00 is named twice."))
            #expect(
                try await app.request(.get, "/v1/stores/\(store)/rota", token: try await app.signIn(role: .manager, store: store).token)
                    .json["defaultPickers"].int == 2, "nothing changed")
        }
    }

    @Test("extreme numbers and nonsense in the rota form are a sentence and a 4xx each, nothing written; staff neither see nor save it")
    func extremesAndStaff() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let manager = try await app.storeAccount(.manager, store: store)
            let cookie = try await app.consoleCookie(manager)
            let csrf = try await app.csrfToken(on: "/console/settings", cookie: cookie)
            for value in NewPageExtremesTests.extremes + ["-1", "51", "2.5", ""] {
                let fields = ["_csrf": csrf, "defaultPickers": value.isEmpty ? "1" : value, "rotaHours": "monday \(value) \(value)"]
                let reply = try await app.form(.post, "/console/settings/rota", fields, cookie: cookie)
                #expect((400..<500).contains(reply.status.code), "\(value): \(reply.status)")
            }
            for line in ["monday", "someday 9 1", "monday 9-9 1", "monday 9 1 extra", "monday -3-4 1", String(repeating: "9", count: 5_000)] {
                let reply = try await app.form(
                    .post, "/console/settings/rota", ["_csrf": csrf, "defaultPickers": "1", "rotaHours": line], cookie: cookie)
                #expect(reply.status == .unprocessableContent, "\(line.prefix(20))")
            }
            #expect(try await app.request(.get, "/healthz").status == .ok)
            #expect(try await sql("SELECT count(*) FROM store_rotas WHERE store_id = $1", [store], on: app.database) == [["0"]])

            let staff = try await app.consoleCookie(try await app.storeAccount(.staff, store: store))
            #expect(try await app.form(.get, "/console/settings", cookie: staff).text.contains("rota-form") == false)
            let staffCSRF = try await app.csrfToken(on: "/console/settings", cookie: staff)
            let tried = try await app.form(
                .post, "/console/settings/rota", ["_csrf": staffCSRF, "defaultPickers": "9", "rotaHours": ""], cookie: staff)
            #expect(tried.status == .forbidden)
            #expect(try await sql("SELECT count(*) FROM store_rotas WHERE store_id = $1", [store], on: app.database) == [["0"]])
        }
    }
}
