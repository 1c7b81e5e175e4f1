import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

@Suite("Catalogue: stores, aisles, barcodes and the locate page")
struct CatalogueLookupTests {
    @Test(
        "a barcode's check digit is verified for EAN-13, UPC-A and EAN-8",
        arguments: [
            ("4006381333931", Barcode.Kind.ean13), ("036000291452", .upcA), ("96385074", .ean8), (" 5901234123457 ", .ean13),
        ])
    func validBarcodes(text: String, kind: Barcode.Kind) throws {
        let barcode = try Barcode(text)
        #expect(barcode.kind == kind)
        #expect(barcode.digits == text.trimmingCharacters(in: .whitespaces))
    }

    @Test(
        "a wrong check digit, a wrong length or a non-digit is refused",
        arguments: [
            "4006381333932", "036000291453", "96385075", "1234567", "12345678901234", "40063813339a1", "", "٤٠٠٦٣٨١٣٣٣٩٣١",
        ])
    func invalidBarcodes(text: String) {
        #expect(throws: CatalogueError.invalidBarcode(text)) { try Barcode(text) }
    }

    @Test("scanning: a known barcode finds the product, an invalid one is 422, an unknown one 404")
    func scan() async throws {
        try await withApp { app in
            let store = try await app.catalogueStore()
            let id = try await app.addProduct("Grace Corned Beef 340g", brand: "Grace", barcode: "4006381333931", at: store, onHand: 9)
            let found = try await app.request(.get, "/v1/products/barcode/4006381333931?storeId=\(store.id)")
            #expect(found.status == .ok)
            #expect(found.json["id"].string == id)
            #expect(found.json["availability"]["available"].int == 9)
            let invalid = try await app.request(.get, "/v1/products/barcode/4006381333932")
            #expect(invalid.status == .unprocessableContent)
            #expect(invalid.errorCode == "invalid_barcode")
            let unknown = try await app.request(.get, "/v1/products/barcode/5901234123457")
            #expect(unknown.status == .notFound)
            #expect(unknown.errorCode == "not_found")
        }
    }

    @Test("stores are public; a store's aisles come in walk order with their zones")
    func storesAndAisles() async throws {
        try await withApp { app in
            let store = try await app.catalogueStore(code: "QC-TEST")
            let stores = try await app.request(.get, "/v1/stores")
            #expect(stores.status == .ok)
            #expect(stores.json["items"].array.contains { $0["code"].string == "QC-TEST" })
            #expect(stores.text.contains(#""nextCursor":null"#), "nextCursor is written, as null")
            let one = try await app.request(.get, "/v1/stores/\(store.id)")
            #expect(one.json["currency"].string == "JMD")
            let aisles = try await app.request(.get, "/v1/stores/\(store.id)/aisles")
            #expect(aisles.json["items"].array.map { $0["code"].string } == ["4", "6", "9"])
            #expect(aisles.json["items"][1]["zone"].string == "chilled")
            #expect(try await app.request(.get, "/v1/stores/\(UUID())").status == .notFound)
            #expect(try await app.request(.get, "/v1/stores/\(UUID())/aisles").status == .notFound)
        }
    }

    @Test("locate names aisle, bay and shelf; a product with no place says so instead of vanishing")
    func locate() async throws {
        try await withApp { app in
            let store = try await app.catalogueStore()
            try await app.addProduct("Mozzarella Cheese", brand: "Galbani", at: store, aisle: "6", bay: 3, shelf: "B")
            try await app.addProduct("Mozzarella Sticks", brand: "Galbani", at: store)
            let reply = try await app.request(.get, "/v1/stores/\(store.id)/locate?q=mozarella")
            #expect(reply.status == .ok)
            let items = reply.json["items"].array
            let placed = try #require(items.first { $0["name"].string == "Mozzarella Cheese" })
            #expect(placed["located"].bool == true)
            #expect(placed["place"].string == "Aisle 6 (Dairy), bay 3, shelf B")
            #expect(placed["location"]["zone"].string == "chilled")
            let unplaced = try #require(items.first { $0["name"].string == "Mozzarella Sticks" })
            #expect(unplaced["located"].bool == false)
            #expect(unplaced["place"].string == "Not yet placed in an aisle at this store")
            let empty = try await app.request(.get, "/v1/stores/\(store.id)/locate?q=%20")
            #expect(empty.status == .unprocessableContent)
        }
    }

    @Test("the demo store has low stock, one product out of stock and unplaced products")
    func demoStore() async throws {
        try await withApp { app in
            let summary = try await app.loadDemo()
            let store = summary.storeID.uuidString.lowercased()
            let soy = try await app.request(.get, "/v1/stores/\(store)/locate?q=soy%20chunks")
            #expect(soy.json["items"][0]["located"].bool == false)
            let ackee = try await app.request(.get, "/v1/stores/\(store)/locate?q=ackee")
            #expect(ackee.json["items"][0]["located"].bool == true)
            let manager = try await app.signIn(role: .manager, store: store)
            let low = try await app.request(.get, "/v1/stores/\(store)/stock?low=true&limit=100", token: manager.token)
            let skus = Set(low.json["items"].array.compactMap { $0["sku"].string })
            #expect(skus.isSuperset(of: ["QC-0034", "QC-0043", "QC-0076", "QC-0086", "QC-0098"]))
            let out = try #require(low.json["items"].array.first { $0["sku"].string == "QC-0043" })
            #expect(out["onHand"].int == 0)
        }
    }
}

extension TestApp {
    /// Loads the demo store into this app's database.
    func loadDemo() async throws -> DemoSeed.Summary {
        let database = try FulfilmentDomain.Database(connection: self.database, logger: .init(label: "test"))
        return try await withRunning(database) { try await DemoSeed.load(into: database, logger: .init(label: "test")) }
    }
}
