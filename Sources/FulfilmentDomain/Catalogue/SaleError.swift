import HTTPTypes
import PostgresNIO

/// Everything a manager's sale can be refused for, and how each looks over HTTP.
package enum SaleError: Error, APIErrorConvertible, Equatable {
    case productNotFound
    case saleNotFound
    case productDiscontinued(ProductID)
    /// The store does not carry the product (it has no stock row there).
    case notInRange
    /// The sale price is not below the regular price at the store.
    case priceNotLower(regular: Money)
    /// Another sale of the product at the store overlaps this one's window.
    case overlaps
    /// The sale has already ended (or was withdrawn).
    case alreadyEnded
    case invalidField(String, String)

    package var apiError: APIError {
        switch self {
        case .productNotFound: .notFound("The product")
        case .saleNotFound: .notFound("The sale")
        case .productDiscontinued(let id):
            APIError(.conflict, "product_discontinued", "That product is discontinued.", details: ["productId": .string(id.description)])
        case .notInRange:
            APIError(.conflict, "not_in_range", "This store does not carry that product; set its stock first.", details: ["field": "productId"])
        case .priceNotLower(let regular):
            APIError(
                .unprocessableContent, "sale_price_not_lower",
                "A sale price must be below the regular price here, \(MoneyText.format(regular.amount, regular.currency)).",
                details: ["field": "price", "regularPrice": ["amount": .int(Int(regular.amount)), "currency": .string(regular.currency)]])
        case .overlaps:
            APIError(
                .conflict, "sale_overlaps", "Another sale of this product at this store overlaps that window; end it or pick another.",
                details: ["field": "startsAt"])
        case .alreadyEnded:
            APIError(.conflict, "sale_ended", "That sale has already ended.")
        case .invalidField(let field, let message):
            .invalidField(field, message)
        }
    }
}

extension SaleError: DatabaseErrorMapping {
    /// The exclusion constraint that keeps a product's sales at a store from overlapping.
    package init?(databaseError error: any Error) {
        switch (error.sqlState, error.constraintName) {
        case (SQLState.exclusionViolation, "store_sales_no_overlap"?): self = .overlaps
        default: return nil
        }
    }
}
