import HTTPTypes
import PostgresNIO

/// Everything that can go wrong with stores, the catalogue, stock and favourites, and how
/// each looks over HTTP. The one place catalogue errors meet status codes.
public enum CatalogueError: Error, APIErrorConvertible, Equatable {
    case storeNotFound
    case productNotFound
    /// No product has this barcode.
    case barcodeNotFound(Barcode)
    case imageNotFound
    case notStocked
    case aisleNotFound(String)
    case invalidBarcode(String)
    case invalidField(String, String)
    case invalidCursor
    /// A listing parameter (`sort=price`, `onSale`, `new`) that is per store, without `storeId`.
    case storeRequired(String)
    case skuTaken
    case barcodeTaken
    /// `reserved` is nil when only the database's CHECK noticed.
    case stockBelowReserved(reserved: Int?)
    /// On hand would pass the ceiling every stock figure keeps (so no sum overflows).
    case onHandTooLarge(limit: Int)
    /// A set of on hand based on a figure that has changed since the manager read it.
    case stockChanged(onHand: Int, expected: Int)
    case imageTooLarge(limit: Int)
    case unsupportedImage
    /// A header that declares no size, or more pixels than a reader's phone should decode.
    case imageDimensions(width: Int, height: Int)
    case imageTypeMismatch(declared: String, actual: String)
    /// A store's own minimum age below the chain's, which holds in every store.
    case minimumAgeBelowChain(chain: Int)
    /// An image at a position past the next free one (the product has `next` images).
    case imagePosition(next: Int)
    /// A category pictured by a product that has no image yet.
    case productWithoutImage

    public var apiError: APIError {
        switch self {
        case .storeNotFound: .notFound("The store")
        case .productNotFound: .notFound("The product")
        case .barcodeNotFound(let barcode): .notFound("A product with barcode \(barcode)")
        case .imageNotFound: .notFound("The product's image")
        case .notStocked:
            APIError(.notFound, "not_stocked", "This store does not carry that product; set its stock first.")
        case .aisleNotFound(let code):
            APIError(
                .unprocessableContent, "unknown_aisle", "This store has no aisle '\(code)'.",
                details: ["field": "aisleCode"])
        case .invalidBarcode(let text):
            APIError(
                .unprocessableContent, "invalid_barcode",
                "'\(text.prefix(40))' is not a valid EAN-13, UPC-A or EAN-8 barcode (8, 12 or 13 digits with a correct check digit).",
                details: ["field": "barcode"])
        case .invalidField(let field, let message):
            .invalidField(field, message)
        case .invalidCursor:
            APIError(
                .unprocessableContent, "invalid_cursor", "The cursor is not one this listing gave out.",
                details: ["field": "cursor"])
        case .storeRequired(let field):
            APIError(
                .unprocessableContent, "store_required",
                "Prices, sales and new arrivals are per store: '\(field)' needs storeId.", details: ["field": .string(field)])
        case .skuTaken:
            APIError(.conflict, "sku_taken", "Another product already has that SKU.", details: ["field": "sku"])
        case .barcodeTaken:
            APIError(.conflict, "barcode_taken", "Another product already has that barcode.", details: ["field": "barcode"])
        case .onHandTooLarge(let limit):
            APIError(
                .conflict, "on_hand_too_large", "On hand would pass \(limit), the most a store can hold of one product.",
                details: ["field": "delta", "limit": .int(limit)])
        case .stockBelowReserved(let reserved):
            APIError(
                .conflict, "stock_below_reserved",
                "On hand cannot be less than what open orders have reserved\(reserved.map { " (\($0))" } ?? "").",
                details: reserved.map { ["field": "onHand", "reserved": .int($0)] } ?? ["field": "onHand"])
        case .stockChanged(let onHand, let expected):
            APIError(
                .conflict, "stock_changed",
                "On hand is \(onHand) now, not \(expected) as you saw it (a sale or a delivery came in between); nothing was changed. Check the figure and set it again, or adjust by the difference.",
                details: ["onHand": .int(onHand), "expectedOnHand": .int(expected)])
        case .imageTooLarge(let limit):
            APIError(
                .contentTooLarge, "image_too_large", "The image is larger than \(limit / 1024 / 1024) MiB.",
                details: ["limitBytes": .int(limit)])
        case .unsupportedImage:
            APIError(.unsupportedMediaType, "unsupported_image", "The file is not a PNG or JPEG image.")
        case .imageDimensions(let width, let height):
            APIError(
                .unprocessableContent, "image_dimensions",
                "An image is at most \(ImageHeader.maximumSide) pixels a side and \(ImageHeader.maximumPixels / 1_000_000) million pixels in all; this one says \(width) × \(height).",
                details: ["width": .int(width), "height": .int(height)])
        case .imageTypeMismatch(let declared, let actual):
            APIError(
                .unprocessableContent, "image_type_mismatch",
                "The body was declared \(declared) but its bytes are \(actual).")
        case .minimumAgeBelowChain(let chain):
            APIError(
                .unprocessableContent, "minimum_age_below_chain",
                "The chain sells this product only to customers aged \(chain) or over; a store may ask more, never less.",
                details: ["field": "minimumAge", "chainMinimumAge": .int(chain)])
        case .imagePosition(let next):
            APIError(
                .unprocessableContent, "image_position",
                "The product has \(next) image\(next == 1 ? "" : "s"): the next one goes at position \(min(next, 9)), without gaps.",
                details: ["field": "position", "next": .int(next)])
        case .productWithoutImage:
            APIError(
                .conflict, "no_image", "That product has no image yet: upload one first, or choose another product.",
                details: ["field": "imageProductId"])
        }
    }
}

extension CatalogueError: DatabaseErrorMapping {
    /// The database's own guards on the catalogue's tables, as client errors: an unknown product
    /// or store behind a foreign key, a SKU or barcode another product holds, a broken stock CHECK.
    /// (The CSV import reports its problems by line instead, and maps none of these.)
    public init?(databaseError error: any Error) {
        let table = (error as? PSQLError)?.serverInfo?[.tableName]
        switch (error.sqlState, error.constraintName) {
        case (SQLState.uniqueViolation, "products_sku_key"?): self = .skuTaken
        case (SQLState.uniqueViolation, "products_barcode_key"?): self = .barcodeTaken
        case (SQLState.foreignKeyViolation, "stock_product_id_fkey"?), (SQLState.foreignKeyViolation, "favourites_product_id_fkey"?),
            (SQLState.foreignKeyViolation, "product_images_product_id_fkey"?):
            self = .productNotFound
        case (SQLState.foreignKeyViolation, "stock_store_id_fkey"?), (SQLState.foreignKeyViolation, "customer_stores_store_id_fkey"?):
            self = .storeNotFound
        case (SQLState.checkViolation, "stock_reserved_within_on_hand"?): self = .stockBelowReserved(reserved: nil)
        case (SQLState.checkViolation, _) where table == "stock":
            self = .invalidField("stock", "Stock quantities must be 0 or more.")
        default: return nil
        }
    }
}
