import Foundation
import PostgresNIO

/// A store as the catalogue sees it.
public struct StoreRecord: Sendable, Equatable {
    public var id: UUID
    public var code: String
    public var name: String
    public var address: String
    public var currency: String
}

/// One of a store's aisles.
public struct AisleRecord: Sendable, Equatable {
    public var id: UUID
    public var code: String
    public var name: String
    public var walkOrder: Int
    public var zone: String
}

/// Where a product sits in one store.
struct LocationRecord: Sendable, Equatable {
    var aisleID: UUID
    var aisleCode: String
    var aisleName: String
    var zone: String
    var bay: Int?
    var shelf: String?

    /// "Aisle 6 (Dairy), bay 3, shelf B" — what the locate page shows.
    var sentence: String {
        var parts = ["Aisle \(aisleCode) (\(aisleName))"]
        if let bay { parts.append("bay \(bay)") }
        if let shelf { parts.append("shelf \(shelf)") }
        return parts.joined(separator: ", ")
    }

    static let notLocatedSentence = "Not yet placed in an aisle at this store"
}

/// A product at one store: the stock row, with its location when it has one.
struct StockRecord: Sendable, Equatable {
    var storeID: UUID
    var onHand: Int
    /// Held by open orders.
    var reserved: Int
    var minSupply: Int
    var location: LocationRecord?

    /// What a customer can still buy: on hand less what open orders hold.
    var available: Int { max(0, onHand - reserved) }
    /// At or below the reorder point.
    var isLow: Bool { onHand <= minSupply }
}

/// A catalogue product, and (when a store was asked about) its stock there.
struct ProductRecord: Sendable, Equatable {
    var id: UUID
    var sku: String
    var barcode: String?
    var name: String
    var brand: String
    var description: String
    var category: String
    var priceAmount: Int64
    var currency: String
    var discontinued: Bool
    var hasImage: Bool
    var stock: StockRecord?

    /// The columns `init(row:)` reads (a constant, used with `\(unescaped:)`). The query joins
    /// `products p`, `stock s` (for the store asked about, or none) and `extraJoins`.
    static let columns = """
        p.id AS p_id, p.sku, p.barcode, p.name AS p_name, p.brand, p.description, p.category,
        p.price_amount, p.currency::text AS currency, p.discontinued, img.product_id IS NOT NULL AS has_image,
        s.store_id, s.on_hand, s.reserved, s.min_supply,
        a.id AS a_id, a.code AS a_code, a.name AS a_name, a.zone, s.bay, s.shelf
        """

    /// The aisle and image joins `columns` reads, after the `stock s` join.
    static let extraJoins = """
        LEFT JOIN aisles a ON a.id = s.aisle_id
        LEFT JOIN product_images img ON img.product_id = p.id
        """

    init(row: PostgresRow) throws {
        let r = row.makeRandomAccess()
        id = try r["p_id"].decode(UUID.self)
        sku = try r["sku"].decode(String.self)
        barcode = try r["barcode"].decode(String?.self)
        name = try r["p_name"].decode(String.self)
        brand = try r["brand"].decode(String.self)
        description = try r["description"].decode(String.self)
        category = try r["category"].decode(String.self)
        priceAmount = try r["price_amount"].decode(Int64.self)
        currency = try r["currency"].decode(String.self)
        discontinued = try r["discontinued"].decode(Bool.self)
        hasImage = try r["has_image"].decode(Bool.self)
        if let storeID = try r["store_id"].decode(UUID?.self) {
            var location: LocationRecord?
            if let aisleID = try r["a_id"].decode(UUID?.self) {
                location = LocationRecord(
                    aisleID: aisleID, aisleCode: try r["a_code"].decode(String.self), aisleName: try r["a_name"].decode(String.self),
                    zone: try r["zone"].decode(String.self), bay: try r["bay"].decode(Int?.self), shelf: try r["shelf"].decode(String?.self))
            }
            stock = StockRecord(
                storeID: storeID, onHand: try r["on_hand"].decode(Int.self), reserved: try r["reserved"].decode(Int.self),
                minSupply: try r["min_supply"].decode(Int.self), location: location)
        } else {
            stock = nil
        }
    }
}

/// A page of rows and the cursor of the next page, if there is one.
struct Page<Item: Sendable>: Sendable {
    var items: [Item]
    var nextCursor: String?
}
