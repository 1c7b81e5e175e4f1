import Foundation
import Logging
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

@Suite("Catalogue: bulk import from CSV, all or nothing")
struct CatalogueImportTests {
    static let header = "sku,barcode,name,brand,description,category,price,on_hand,min_supply,aisle,bay,shelf"

    @Test("a good file creates products with stock and places; importing again updates them")
    func importsAndUpdates() async throws {
        try await withApp { app in
            let store = try await app.catalogueStore(code: "IMP-1")
            let csv = #"""
                \#(Self.header)
                QC-1,4006381333931,Mozzarella Cheese 200g,Galbani,"Soft, fresh ""pasta filata""",Dairy,80100,12,4,6,3,B
                QC-2,,Hard Dough Bread,National,,Bakery,45000,30,10,,,

                """#
            let summary = try await app.importCSV(csv, store: "IMP-1")
            #expect(summary == CatalogueImport.Summary(store: "IMP-1", rows: 2, created: 2, updated: 0))
            let found = try await app.request(.get, "/v1/products?q=mozarela&storeId=\(store.id)")
            let mozzarella = found.json["items"][0]
            #expect(mozzarella["description"].string == "Soft, fresh \"pasta filata\"")
            #expect(mozzarella["availability"]["available"].int == 12)
            #expect(mozzarella["availability"]["location"]["aisleName"].string == "Dairy")
            let bread = try await app.request(.get, "/v1/stores/\(store.id)/locate?q=bread")
            #expect(bread.json["items"][0]["located"].bool == false)

            let update = "\(Self.header)\nQC-2,,Hard Dough Bread,National,,Bakery,47000,25,10,4,1,A\n"
            #expect(try await app.importCSV(update, store: store.id) == .init(store: "IMP-1", rows: 1, created: 0, updated: 1))
            let moved = try await app.request(.get, "/v1/stores/\(store.id)/locate?q=bread")
            #expect(moved.json["items"][0]["place"].string == "Aisle 4 (Canned goods), bay 1, shelf A")
            #expect(moved.json["items"][0]["available"].int == 25)
        }
    }

    @Test("a file with only some columns leaves the others as they were; a present empty cell clears")
    func partialColumns() async throws {
        try await withApp { app in
            let store = try await app.catalogueStore(code: "IMP-P")
            let full = """
                \(Self.header)
                QC-1,4006381333931,Mozzarella Cheese 200g,Galbani,Soft and fresh,Dairy,80100,12,4,6,3,B
                """
            _ = try await app.importCSV(full, store: "IMP-P")
            // The manager's count sheet: just what they had.
            let count = "sku,name,price,on_hand\nQC-1,Mozzarella Cheese 200g,82000,9\n"
            #expect(try await app.importCSV(count, store: "IMP-P") == .init(store: "IMP-P", rows: 1, created: 0, updated: 1))
            let kept = try await sql(
                """
                SELECT p.barcode, p.brand, p.description, p.category, p.price_amount, s.on_hand, s.min_supply, a.code, s.bay, s.shelf
                FROM products p JOIN stock s ON s.product_id = p.id AND s.store_id = $1 LEFT JOIN aisles a ON a.id = s.aisle_id
                WHERE p.sku = 'QC-1'
                """, [store.id], on: app.database)
            #expect(kept[0] == ["4006381333931", "Galbani", "Soft and fresh", "Dairy", "82000", "9", "4", "6", "3", "B"])
            // The count is in the stock ledger.
            let ledger = try await sql(
                "SELECT delta, reason, on_hand_after FROM stock_movements WHERE store_id = $1 ORDER BY id", [store.id], on: app.database)
            #expect(ledger == [["12", "import", "12"], ["-3", "import", "9"]])

            // Present but empty: those fields are cleared; absent ones still stay.
            let clearing = "sku,name,price,on_hand,barcode,brand,aisle\nQC-1,Mozzarella Cheese 200g,82000,9,,,\n"
            _ = try await app.importCSV(clearing, store: "IMP-P")
            let cleared = try await sql(
                """
                SELECT p.barcode, p.brand, p.description, s.min_supply, s.aisle_id, s.bay, s.shelf
                FROM products p JOIN stock s ON s.product_id = p.id AND s.store_id = $1 WHERE p.sku = 'QC-1'
                """, [store.id], on: app.database)
            #expect(cleared[0] == [nil, "", "Soft and fresh", "4", nil, nil, nil])

            // A bay without its aisle is refused: a location is one thing.
            let refused = try await app.importRefused("sku,name,price,on_hand,bay\nQC-1,Mozzarella,82000,9,3\n", store: "IMP-P")
            #expect(refused.first?.message.contains("need the column 'aisle'") == true)
        }
    }

    @Test("one bad row writes nothing, and every bad row is named by its line")
    func badRowWritesNothing() async throws {
        try await withApp { app in
            let store = try await app.catalogueStore(code: "IMP-2")
            let existing = try await app.addProduct("Old Bread", sku: "QC-2", at: store, onHand: 9, reserved: 7)
            let csv = """
                \(Self.header)
                QC-1,4006381333931,Mozzarella Cheese 200g,Galbani,,Dairy,80100,12,4,6,3,B
                QC-3,4006381333932,Bad Barcode,X,,,100,1,0,,,
                QC-4,,Negative,X,,,100,-5,0,,,
                QC-5,,Nowhere,X,,,100,1,0,77,,
                QC-6,,"Multi
                line name",X,,,abc,1,0,,,
                QC-1,,Duplicate,X,,,100,1,0,,,
                """
            let refused = try await app.importRefused(csv, store: "IMP-2")
            #expect(refused.map(\.line) == [3, 4, 5, 6, 8])
            #expect(refused[0].message.contains("barcode"))
            #expect(refused[1].message.contains("0 or more"))
            #expect(refused[2].message.contains("aisle '77'"))
            #expect(refused[3].message.contains("'abc' is not a whole number"))
            #expect(refused[4].message.contains("also on line 2"))
            #expect(try await sql("SELECT count(*) FROM products", on: app.database)[0][0] == "1")

            // Rows only the database can judge: stock held by open orders, a barcode on another product.
            try await app.addProduct("Other", sku: "QC-9", barcode: "5901234123457")
            let againstDatabase = """
                \(Self.header)
                QC-1,,Mozzarella Cheese 200g,Galbani,,Dairy,80100,12,4,6,3,B
                QC-2,,Old Bread,,,,100,3,0,,,
                QC-7,5901234123457,Clash,,,,100,3,0,,,
                """
            let later = try await app.importRefused(againstDatabase, store: store.id)
            #expect(later.map(\.line) == [3, 4])
            #expect(later[0].message.contains("reserved"))
            #expect(later[1].message.contains("belongs to product QC-9"))
            #expect(try await sql("SELECT count(*) FROM products", on: app.database)[0][0] == "2")
            #expect(try await app.sqlOnHand(store: store.id, product: existing) == 9)
        }
    }

    @Test("a file without the required columns, or with an unknown store, is refused up front")
    func refusedUpFront() async throws {
        try await withApp { app in
            _ = try await app.catalogueStore(code: "IMP-3")
            let missing = try await app.importRefused("sku,name\nQC-1,Bread\n", store: "IMP-3")
            #expect(missing.map(\.message).contains("the column 'price' is required"))
            let nowhere = try await app.importRefused("\(Self.header)\n", store: "NO-SUCH")
            #expect(nowhere.first?.message.contains("no store") == true)
        }
    }

    @Test("a NUL byte or bytes that are not UTF-8 are a numbered line's problem, and nothing is imported")
    func hostileBytes() async throws {
        // Bytes that are not UTF-8 on lines 3 and 5 (a Latin-1 é and a lone 0xFF): named, never read as U+FFFD.
        var file = Data("\u{FEFF}sku,name,price,on_hand\nQC-1,Bread,100,1\nQC-2,Caf".utf8)
        file.append(contentsOf: [0xE9])
        file.append(Data(",100,1\nQC-3,Rice,100,1\nQC-4,Oil".utf8))
        file.append(contentsOf: [0xFF])
        file.append(Data(",100,1\n".utf8))
        #expect(throws: CatalogueImport.Refused.self) { try CatalogueImport.text(file) }
        do {
            _ = try CatalogueImport.text(file)
        } catch {
            #expect(error.problems.map(\.line) == [3, 5])
            #expect(error.problems[0].message.contains("not UTF-8"))
        }
        #expect(try CatalogueImport.text(Data("\u{FEFF}sku,name\nQC-1,Café\n".utf8)) == "sku,name\nQC-1,Café\n")

        try await withApp { app in
            _ = try await app.catalogueStore(code: "IMP-N")
            let refused = try await app.importRefused(
                "sku,name,price,on_hand\nQC-1,Bread,100,1\nQC-2,Bad\u{0}Name,100,1\n", store: "IMP-N")
            #expect(refused.map(\.line) == [3])
            #expect(refused[0].message.contains("NUL"))
            #expect(try await sql("SELECT count(*) FROM products", on: app.database)[0][0] == "0")
        }
    }

    @Test("the CSV reader follows RFC 4180: quotes, doubled quotes, embedded newlines, CRLF, BOM")
    func csvReader() throws {
        let records = try CSV.parse("\u{FEFF}a,b,c\r\n\"x, y\",\"say \"\"hi\"\"\",\"two\nlines\"\r\n\n1,,3")
        #expect(
            records == [
                CSV.Record(line: 1, fields: ["a", "b", "c"]),
                CSV.Record(line: 2, fields: ["x, y", "say \"hi\"", "two\nlines"]),
                CSV.Record(line: 5, fields: ["1", "", "3"]),
            ])
        #expect(throws: CSV.SyntaxError.self) { try CSV.parse("a,\"b\nc") }
        #expect(CatalogueImportQueries.copyText("a\tb\\c\nd") == "a\\tb\\\\c\\nd")
        #expect(CatalogueImportQueries.copyText(nil) == "\\N")
    }
}

extension TestApp {
    func importCSV(_ csv: String, store: String) async throws -> CatalogueImport.Summary {
        let database = try FulfilmentDomain.Database(connection: self.database, logger: Logger(label: "test"))
        return try await withRunning(database) {
            try await CatalogueImport(database: database).run(csv: csv, store: store, logger: Logger(label: "test"))
        }
    }

    func importRefused(_ csv: String, store: String) async throws -> [CatalogueImport.Problem] {
        do {
            let summary = try await importCSV(csv, store: store)
            Issue.record("expected the import to be refused, but it imported \(summary)")
            return []
        } catch let refused as CatalogueImport.Refused {
            return refused.problems
        }
    }
}
