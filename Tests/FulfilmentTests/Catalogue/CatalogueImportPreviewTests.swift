import Foundation
import HTTPTypes
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Issue 46: a manager uploads a CSV of their store's prices, places and stock, and sees what it
/// would change (new, changed, unchanged, every refused row with its line) before anything is
/// written; the chain's admin does the same with the full catalogue for a store they choose.
@Suite("Catalogue import: the preview, before anything is written")
struct CatalogueImportPreviewTests {
    @Test("a manager's file is classed row by row: changed, unchanged, and refused rows with their lines; nothing is written")
    func managerPreview() async throws {
        try await withApp { app in
            let store = try await app.catalogueStore()
            let manager = try await app.signIn(role: .manager, store: store.id)
            try await app.addProduct("Mozzarella", sku: "QC-1", at: store, onHand: 10)
            try await app.addProduct("Hard Dough Bread", sku: "QC-2", at: store, onHand: 5)
            try await app.addProduct("Ackee", sku: "QC-3", at: store, onHand: 3)
            let csv = """
                sku,store_price,on_hand,aisle,bay,shelf
                QC-1,,10,,,
                QC-2,9900,7,6,3,B
                QC-404,100,1,,,
                QC-3,abc,3,,,
                """
            let before = try await CrossStoreAccessTests.snapshot(app)
            let reply = try await app.uploadImport(csv, store: store.id, token: manager.token)
            #expect(reply.status == .created, "\(reply.text)")
            let preview = reply.json
            #expect(preview["status"].string == "previewed")
            #expect(preview["kind"].string == "store")
            #expect(preview["fileName"].string == "stock.csv")
            #expect(preview["rows"].int == 4)
            #expect(preview["new"].int == 0)
            #expect(preview["changed"].int == 1)
            #expect(preview["unchanged"].int == 1)
            #expect(preview["refusedRows"].array.map { $0["line"].int } == [4, 5])
            #expect(preview["refusedRows"][0]["message"].string?.contains("no product with SKU QC-404") == true)
            #expect(preview["refusedRows"][1]["message"].string?.contains("store_price 'abc'") == true)
            #expect(preview["changedRows"][0]["sku"].string == "QC-2")
            #expect(preview["changedRows"][0]["fields"].array.compactMap(\.string) == ["store_price", "on_hand", "place"])

            // Only the import's own row is new; the catalogue and the stock are as they were.
            let after = try await CrossStoreAccessTests.snapshot(app)
            #expect(before.keys.filter { before[$0] != after[$0] }.sorted() == ["catalogue_imports"])

            // With refused rows it cannot be started: fix the file and upload it again.
            let id = try #require(preview["id"].string)
            let start = try await app.request(.post, "/v1/stores/\(store.id)/catalogue-imports/\(id)/start", token: manager.token)
            #expect(start.status == .conflict)
            #expect(start.errorCode == "import_refused")
            #expect(start.json["error"]["message"].string?.contains("fix the file and upload it again") == true)
        }
    }

    @Test("a manager's file with a chain column is refused, saying the chain's admin keeps it")
    func chainColumnRefused() async throws {
        try await withApp { app in
            let store = try await app.catalogueStore()
            let manager = try await app.signIn(role: .manager, store: store.id)
            try await app.addProduct("Mozzarella", sku: "QC-1", at: store)
            let reply = try await app.uploadImport("sku,name,price,on_hand\nQC-1,Cheese,100,4\n", store: store.id, token: manager.token)
            #expect(reply.status == .created)
            let refused = reply.json["refusedRows"].array
            #expect(refused.map { $0["line"].int } == [1, 1])
            #expect(refused[0]["message"].string?.contains("the column 'name' is the chain's catalogue, which its admin keeps") == true)
            #expect(refused[1]["message"].string?.contains("'price'") == true)
        }
    }

    @Test("the chain's admin previews the full file for a store: new products, changed ones, every refused row")
    func adminPreview() async throws {
        try await withApp { app in
            let store = try await app.catalogueStore()
            let admin = try await app.signInAdmin()
            try await app.addProduct("Mozzarella", sku: "QC-1", price: 80100, at: store, onHand: 12)
            let csv = """
                sku,name,price,on_hand
                QC-1,Mozzarella,82000,12
                QC-NEW,Callaloo,15000,30
                QC-BAD,,100,1
                """
            let reply = try await app.uploadImport(csv, store: store.id, token: admin.token)
            #expect(reply.status == .created, "\(reply.text)")
            #expect(reply.json["kind"].string == "chain")
            #expect(reply.json["new"].int == 1)
            #expect(reply.json["changed"].int == 1)
            #expect(reply.json["newRows"][0]["sku"].string == "QC-NEW")
            #expect(reply.json["changedRows"][0]["fields"].array.compactMap(\.string) == ["price"])
            #expect(reply.json["refusedRows"].array.map { $0["line"].int } == [4])
            #expect(try await sql("SELECT count(*) FROM products WHERE sku = 'QC-NEW'", on: app.database)[0][0] == "0")
        }
    }

    @Test("another store's import is not found; another store's manager is refused at the door; a file over 8 MiB is 413")
    func scopedAndBounded() async throws {
        try await withApp { app in
            let a = try await app.catalogueStore()
            let b = try await app.catalogueStore()
            let managerA = try await app.signIn(role: .manager, store: a.id)
            let managerB = try await app.signIn(role: .manager, store: b.id)
            let staffA = try await app.signIn(role: .staff, store: a.id)
            try await app.addProduct("Mozzarella", sku: "QC-1", at: a)
            let id = try #require(try await app.uploadImport("sku,on_hand\nQC-1,4\n", store: a.id, token: managerA.token).json["id"].string)

            #expect(try await app.request(.get, "/v1/stores/\(a.id)/catalogue-imports/\(id)", token: managerB.token).status == .forbidden)
            #expect(try await app.request(.get, "/v1/stores/\(a.id)/catalogue-imports/\(id)", token: staffA.token).status == .forbidden)
            let elsewhere = try await app.request(.get, "/v1/stores/\(b.id)/catalogue-imports/\(id)", token: managerB.token)
            #expect(elsewhere.status == .notFound)
            #expect(elsewhere.errorCode == "import_not_found")
            let cancel = try await app.request(.post, "/v1/stores/\(b.id)/catalogue-imports/\(id)/cancel", token: managerB.token)
            #expect(cancel.status == .notFound)
            let admin = try await app.signInAdmin()
            #expect(try await app.request(.get, "/v1/stores/\(a.id)/catalogue-imports/\(id)", token: admin.token).status == .ok)

            let huge = "sku,on_hand\n" + String(repeating: "QC-1,4\n", count: CatalogueImports.maximumBytes / 7 + 1)
            let tooLarge = try await app.uploadImport(huge, store: a.id, token: managerA.token)
            #expect(tooLarge.status == .contentTooLarge)
            #expect(tooLarge.json["error"]["message"].string?.contains("at most 8 MiB") == true)
            // No body is no file: said, nothing stored (found by the contract fuzz).
            let before = try await sql("SELECT count(*)::text FROM catalogue_imports", on: app.database)
            let empty = try await app.uploadImport("", store: a.id, token: managerA.token)
            #expect(empty.status == .unprocessableContent && empty.json["error"]["details"]["field"].string == "body")
            #expect(try await sql("SELECT count(*)::text FROM catalogue_imports", on: app.database) == before)
            // A file whose first line names no column is not a catalogue (a JSON body, a file
            // without its header): said, nothing stored. Found by the contract fuzz as admin.
            for notCSV in ["{}", "QC-1,4\nQC-2,5\n", "[1, 2, 3]", "[{\"sku\": 1}]\n"] {
                let refused = try await app.uploadImport(notCSV, store: a.id, token: managerA.token)
                #expect(refused.status == .unprocessableContent && refused.json["error"]["details"]["field"].string == "body")
                #expect(refused.json["error"]["message"].string?.contains("header") == true)
            }
            #expect(try await sql("SELECT count(*)::text FROM catalogue_imports", on: app.database) == before)
            // One known column is enough to be told, line by line, what else is wrong.
            let misnamed = try await app.uploadImport("sku,onhand\nQC-1,4\n", store: a.id, token: managerA.token)
            #expect(misnamed.status == .created)
        }
    }
}

extension TestApp {
    /// Uploads `csv` to preview it as an import at `store`.
    func uploadImport(_ csv: String, store: String, token: String, fileName: String = "stock.csv") async throws -> TestReply {
        try await request(
            .post, "/v1/stores/\(store)/catalogue-imports?fileName=\(q(fileName))", rawBody: csv, token: token,
            headers: [.contentType: "text/csv"])
    }

    /// The import as it is now.
    func importNow(_ id: String, store: String, token: String) async throws -> JSONValue {
        let reply = try await request(.get, "/v1/stores/\(store)/catalogue-imports/\(id)", token: token)
        guard reply.status == .ok else { throw TestSetupError("import \(id): \(reply.status) \(reply.text)") }
        return reply.json
    }

    /// Reads the import until `done` holds (at most 30 s).
    func waitForImport(_ id: String, store: String, token: String, _ what: String, until done: (JSONValue) -> Bool) async throws -> JSONValue {
        for _ in 0..<600 {
            let now = try await importNow(id, store: store, token: token)
            if done(now) { return now }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestSetupError("import \(id) never \(what)")
    }
}
