import Foundation
import HTTPTypes
import NIOCore
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// The import page (issue 46) without a browser: the upload is a multipart form whose token
/// travels inside it; a form the page cannot read is a sentence, never a trap; the chain's admin
/// imports for the store they choose, and another store's import is not found.
@Suite("Console: the catalogue import's pages")
struct CatalogueImportPageTests {
    @Test("an upload posts the file and the token in one multipart form and lands on its preview; bad forms are sentences")
    func uploads() async throws {
        try await withApp { app in
            let store = try await app.catalogueStore()
            try await app.addProduct("Mozzarella", sku: "QC-1", at: store, onHand: 10)
            let manager = try await app.storeAccount(.manager, store: store.id)
            let cookie = try await app.consoleCookie(manager)
            let csrf = try await app.csrfToken(on: "/console/catalogue/import", cookie: cookie)

            let sent = try await app.multipart(
                "/console/catalogue/import", fields: ["_csrf": csrf], file: ("file", "count.csv", "sku,on_hand\nQC-1,8\n"), cookie: cookie)
            #expect(sent.status == .seeOther, "\(sent.text)")
            let location = try #require(sent.headers[.location])
            #expect(location.hasPrefix("/console/catalogue/import/"))
            let preview = try await app.form(.get, location, cookie: cookie)
            #expect(preview.status == .ok)
            #expect(preview.text.contains("id=\"import-start\""))
            #expect(preview.text.contains("Mozzarella"))

            // Without the token inside the form: refused, nothing kept.
            let forged = try await app.multipart(
                "/console/catalogue/import", fields: [:], file: ("file", "count.csv", "sku,on_hand\nQC-1,8\n"), cookie: cookie)
            #expect(forged.status == .forbidden)
            // A boundary the body does not have, and one of 500 characters: sentences.
            let cut = try await app.multipart(
                "/console/catalogue/import", fields: ["_csrf": csrf], file: ("file", "count.csv", "sku"), cookie: cookie, boundary: "other")
            #expect(cut.status == .badRequest)
            #expect(cut.text.contains("The form could not be read"))
            let huge = try await app.multipart(
                "/console/catalogue/import", fields: ["_csrf": csrf], file: ("file", "a.csv", "x"), cookie: cookie,
                boundary: String(repeating: "b", count: 500))
            #expect(huge.status == .badRequest)
            // No file chosen (a plain form): the page says so.
            let none = try await app.form(.post, "/console/catalogue/import", ["_csrf": csrf], cookie: cookie)
            #expect(none.status == .unprocessableContent)
            #expect(none.text.contains("Choose a CSV file to import."))
            #expect(try await sql("SELECT count(*) FROM catalogue_imports", on: app.database)[0][0] == "1")
            #expect(try await app.request(.get, "/healthz").status == .ok)
        }
    }

    @Test("the chain's admin chooses the store; another store's manager finds nothing at the import's address")
    func adminAndOtherStore() async throws {
        try await withApp { app in
            let store = try await app.catalogueStore()
            let other = try await app.catalogueStore()
            let admin = try await PhoneWidthBrowserTests.admin(app)
            let cookie = try await app.consoleCookie(admin)
            let page = try await app.form(.get, "/console/catalogue/import", cookie: cookie)
            #expect(page.text.contains("id=\"import-store\""))
            let csrf = try await app.csrfToken(on: "/console/catalogue/import", cookie: cookie)
            let sent = try await app.multipart(
                "/console/catalogue/import", fields: ["_csrf": csrf, "store": store.id],
                file: ("file", "catalogue.csv", "sku,name,price,on_hand\nQC-9,Callaloo,15000,30\n"), cookie: cookie)
            let location = try #require(sent.headers[.location])
            #expect(location.hasSuffix("?store=\(store.id)"))
            let preview = try await app.form(.get, location, cookie: cookie)
            #expect(preview.text.contains("Callaloo"))

            let manager = try await app.storeAccount(.manager, store: other.id)
            let otherCookie = try await app.consoleCookie(manager)
            let path = String(location.prefix { $0 != "?" })
            #expect(try await app.form(.get, path, cookie: otherCookie).status == .notFound)
        }
    }
}

/// The import's page as its view draws it (no database): the progress a running import shows
/// without script, and a file refused on more rows than a page should list.
@Suite("Console: the catalogue import's page, drawn")
struct CatalogueImportViewTests {
    static let session = ConsoleSession(
        identity: Identity(userID: UserID(UUID()), role: .manager, storeID: StoreID(UUID()), sessionID: SessionID(UUID())), token: "token")

    static func record(_ status: CatalogueImportRecord.Status) -> CatalogueImportRecord {
        CatalogueImportRecord(
            id: CatalogueImportID(UUID()), store: StoreID(UUID()), fileName: "count.csv", kind: .store, status: status, rows: 5_000, new: 0,
            changed: 4_000, unchanged: 1_000, problems: [], examples: [], failure: nil, progressDone: 1_200, progressTotal: 5_000, createdAt: Date(),
            finishedAt: nil)
    }

    @Test("while it runs: a progress bar with its words, Cancel, and the page reloading itself every two seconds")
    func running() {
        let markup = CatalogueImportView.page(session: Self.session, record: Self.record(.running), admin: false, notice: nil).document.markup
        #expect(markup.contains("<progress id=\"import-progress\" max=\"5000\" value=\"1200\">"))
        #expect(markup.contains("1,200 of 5,000 rows"))
        #expect(markup.contains("<meta http-equiv=\"refresh\" content=\"2\">"))
        #expect(markup.contains("id=\"import-cancel\""))
        #expect(!markup.contains("id=\"import-start\""))
        // Every row loaded: the last step writes them in one statement, which has no count.
        var writing = Self.record(.running)
        writing.progressDone = 5_000
        let last = CatalogueImportView.page(session: Self.session, record: writing, admin: false, notice: nil).document.markup
        #expect(last.contains("<progress id=\"import-progress\"></progress>"))
        #expect(last.contains("All 5,000 rows checked and loaded; writing them"))
        let done = CatalogueImportView.page(session: Self.session, record: Self.record(.committed), admin: false, notice: nil).document.markup
        #expect(!done.contains("http-equiv=\"refresh\""))
        #expect(done.contains("Imported 5,000 rows: 0 new, 4,000 changed, 1,000 unchanged."))
    }

    @Test("a file refused on every row lists the first thousand and says how many more")
    func manyRefused() {
        var record = Self.record(.previewed)
        record.problems = (2...1_502).map { CatalogueImport.Problem(line: $0, message: "on_hand is required") }
        let markup = CatalogueImportView.page(session: Self.session, record: record, admin: false, notice: nil).document.markup
        #expect(markup.contains("1,501 rows refused"))
        #expect(markup.contains("and 501 more refused rows"))
        #expect(!markup.contains("id=\"import-start\""))
    }
}

extension TestApp {
    /// Posts a multipart form with one file, as a browser does, with the console cookie.
    func multipart(
        _ path: String, fields: [String: String], file: (name: String, fileName: String, content: String), cookie: String,
        boundary: String = "----WebKitFormBoundaryTest1234"
    ) async throws -> TestReply {
        let written = "----WebKitFormBoundaryTest1234"
        var body = ""
        for (name, value) in fields { body += "--\(written)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n" }
        body += "--\(written)\r\nContent-Disposition: form-data; name=\"\(file.name)\"; filename=\"\(file.fileName)\"\r\n"
        body += "Content-Type: text/csv\r\n\r\n\(file.content)\r\n--\(written)--\r\n"
        let headers: HTTPFields = [.cookie: cookie, .contentType: "multipart/form-data; boundary=\(boundary)"]
        return try await send(path, method: .post, headers: headers, body: ByteBuffer(string: body))
    }
}
