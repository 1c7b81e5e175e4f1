import Foundation
import HTTPTypes
import Logging
import NIOCore
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// A store with a few aisles and products, written straight into the test database.
struct CatalogueStore: Sendable {
    var id: String
    var aisles: [String: String]
}

extension TestApp {
    /// A store with aisles 4 (Canned goods), 6 (Dairy, chilled) and 9 (Frozen foods, frozen).
    func catalogueStore(code: String = "S-\(UInt16.random(in: 1000...9999))") async throws -> CatalogueStore {
        let storeID = try await createStore(code: code, name: "Store \(code)")
        var aisles: [String: String] = [:]
        for (code, name, walk, zone) in [("4", "Canned goods", 1, "ambient"), ("6", "Dairy", 2, "chilled"), ("9", "Frozen foods", 3, "frozen")] {
            let rows = try await sql(
                "INSERT INTO aisles (store_id, code, name, walk_order, zone) VALUES ($1, $2, $3, $4, $5) RETURNING id",
                [storeID, code, name, String(walk), zone], on: database)
            aisles[code] = rows[0][0]!
        }
        return CatalogueStore(id: storeID, aisles: aisles)
    }

    /// A product, stocked at `store` when given (optionally placed in `aisle`). Returns its id.
    @discardableResult
    func addProduct(
        _ name: String, brand: String = "", sku: String? = nil, barcode: String? = nil, category: String = "", price: Int = 10000,
        at store: CatalogueStore? = nil, onHand: Int = 10, reserved: Int = 0, minSupply: Int = 0,
        aisle: String? = nil, bay: Int? = nil, shelf: String? = nil
    ) async throws -> String {
        let sku = sku ?? "SKU-\(UUID().uuidString.prefix(8))"
        var parameters = [sku, name, brand, category, String(price)]
        var barcodeSQL = "NULL"
        if let barcode {
            parameters.append(barcode)
            barcodeSQL = "$\(parameters.count)"
        }
        let id = try await sql(
            """
            INSERT INTO products (sku, name, brand, category, price_amount, currency, barcode)
            VALUES ($1, $2, $3, $4, $5::bigint, 'JMD', \(barcodeSQL)) RETURNING id
            """, parameters, on: database)[0][0]!
        if let store {
            try await sql(
                """
                INSERT INTO stock (store_id, product_id, on_hand, reserved, min_supply, aisle_id, bay, shelf)
                VALUES ($1, $2, $3::int, $4::int, $5::int, NULLIF($6, '')::uuid, NULLIF($7, '')::int, NULLIF($8, ''))
                """,
                [
                    store.id, id, String(onHand), String(reserved), String(minSupply), aisle.flatMap { store.aisles[$0] } ?? "",
                    bay.map(String.init) ?? "", shelf ?? "",
                ], on: database)
        }
        return id
    }

    /// Sends raw bytes (an image upload).
    func upload(_ path: String, bytes: [UInt8], contentType: String, token: String?) async throws -> TestReply {
        var headers: HTTPFields = [.contentType: contentType]
        if let token { headers[.authorization] = "Bearer \(token)" }
        return try await send(path, method: .put, headers: headers, body: ByteBuffer(bytes: bytes))
    }

    /// The names of a listing's items, in order.
    func names(_ path: String, token: String? = nil) async throws -> [String] {
        let reply = try await request(.get, path, token: token)
        #expect(reply.status == .ok, "\(path): \(reply.text)")
        return reply.json["items"].array.compactMap { $0["name"].string }
    }
}

/// Percent-encodes a query value.
func q(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
}

/// A real 1×1 PNG.
let tinyPNG: [UInt8] = Array(
    Data(
        base64Encoded:
            "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")!)
/// The head of a JPEG: SOI, an APP0 marker, and a baseline frame (SOF0) of 1 × 1 pixels, which
/// is where an upload's size is read (`ImageHeader`).
let tinyJPEG: [UInt8] = [
    0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00,
    0xFF, 0xC0, 0x00, 0x0B, 0x08, 0x00, 0x01, 0x00, 0x01, 0x01, 0x01, 0x11, 0x00, 0xFF, 0xD9,
]
