import Foundation

/// A catalogue product, and (when a store was asked about) its stock there. `ProductQueries`
/// reads it from a row (`ProductQueries.record(_:)`).
package struct ProductRecord: Sendable, Equatable {
    package var id: ProductID
    package var sku: String
    package var barcode: String?
    package var name: String
    package var brand: String
    package var description: String
    package var category: String
    /// The pack size as the shelf label says it ("500 g"); empty when not given (migration 059).
    package var size: String = ""
    /// How it is taxed (migration 060).
    package var taxClass: TaxClass = .standard
    package var priceAmount: Int64
    package var currency: String
    package var discontinued: Bool
    package var hasImage: Bool
    package var stock: StockRecord?
    /// The regular price at the store asked about (`store_regular_price`): above `priceAmount`
    /// while a sale runs there (issue 26).
    package var regularAmount: Int64?
    /// When the sale that sets `priceAmount` ends (`store_sale_ends_at`); nil without one.
    package var saleEndsAt: Date?
    /// Its visible reviews' ratings (issue 31), kept on the product's row.
    package var rating = Rating(count: 0, sum: 0)
    /// Its address in the shop, `/shop/products/{slug}` (issue 45): set when it was made, kept
    /// through renames (`product_slug`).
    package var slug: String = ""
    /// Its images in order, each with its text alternative; read only for a product's own page
    /// (``ProductQueries/page(slug:store:on:logger:)``), empty in listings.
    package var gallery: [GalleryImage] = []

    /// One of a product's images (migration 048): position 0 is the one listings show.
    package struct GalleryImage: Sendable, Equatable, Decodable {
        package var position: Int
        package var altText: String
    }

    /// The regular price while a sale sets the price below it, and when that sale ends.
    package var sale: (regularAmount: Int64, endsAt: Date?)? {
        guard let regularAmount, regularAmount > priceAmount else { return nil }
        return (regularAmount, saleEndsAt)
    }
}
