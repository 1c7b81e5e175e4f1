import Foundation

/// A new product's fields, checked: what `POST /v1/products` and the CSV import write.
package struct ProductDraft: Sendable, Equatable {
    package var sku: String
    package var barcode: Barcode?
    package var name: String
    package var brand: String
    package var description: String
    package var category: String
    package var price: Money
    /// The pack size as the shelf label says it ("500 g"); empty when not given.
    package var size: String
    /// How it is taxed (issue 48): standard unless said.
    package var taxClass: TaxClass

    package init(
        sku: String, barcode: String?, name: String, brand: String?, description: String?, category: String?,
        price: Money, size: String? = nil, taxClass: TaxClass = .standard
    ) throws(CatalogueError) {
        self.sku = try ProductRules.sku(sku)
        self.barcode = try ProductRules.barcode(barcode)
        self.name = try ProductRules.name(name)
        self.brand = try ProductRules.text(brand ?? "", field: "brand", limit: 100)
        self.description = try ProductRules.text(description ?? "", field: "description", limit: 2000)
        self.category = try ProductRules.text(category ?? "", field: "category", limit: 100)
        self.price = price
        self.size = try ProductRules.size(size ?? "")
        self.taxClass = taxClass
    }
}

/// Some of a product's fields, checked; nil leaves a field as it is. `barcode` is doubly
/// optional: `.some(nil)` removes it.
package struct ProductChange: Sendable, Equatable {
    package var sku: String?
    package var barcode: Barcode??
    package var name: String?
    package var brand: String?
    package var description: String?
    package var category: String?
    package var price: Money?
    package var discontinued: Bool?
    package var size: String?
    package var taxClass: TaxClass?

    package init(
        sku: String? = nil, barcode: Barcode?? = nil, name: String? = nil, brand: String? = nil, description: String? = nil, category: String? = nil,
        price: Money? = nil, discontinued: Bool? = nil, size: String? = nil, taxClass: TaxClass? = nil
    ) {
        self.sku = sku
        self.barcode = barcode
        self.name = name
        self.brand = brand
        self.description = description
        self.category = category
        self.price = price
        self.discontinued = discontinued
        self.size = size
        self.taxClass = taxClass
    }
}

/// The rules a product's fields must meet, checked before anything is written.
package enum ProductRules {
    package static func sku(_ raw: String) throws(CatalogueError) -> String {
        let sku = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        // Counted as the contract's maxLength counts (code points), before and after trimming.
        guard raw.unicodeScalars.count <= 64, (1...64).contains(sku.unicodeScalars.count), !sku.contains(where: \.isWhitespace) else {
            throw .invalidField("sku", "A SKU is 1 to 64 characters without spaces.")
        }
        return sku
    }

    package static func name(_ raw: String) throws(CatalogueError) -> String {
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...200).contains(name.count) else { throw .invalidField("name", "A name of 1 to 200 characters is required.") }
        return name
    }

    /// An empty or absent barcode is none.
    package static func barcode(_ raw: String?) throws(CatalogueError) -> Barcode? {
        guard let raw, !raw.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        return try Barcode(raw)
    }

    /// A shelf price: not negative, in a three-letter ISO currency.
    package static func price(amount: Int64, currency: String) throws(CatalogueError) -> Money {
        guard amount >= 0 else { throw .invalidField("price.amount", "A price cannot be negative.") }
        guard amount <= Money.maximumPrice else {
            throw .invalidField("price.amount", "A price is at most \(Money.maximumPrice) minor units.")
        }
        guard currency.count == 3, currency.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) }) else {
            throw .invalidField("price.currency", "The currency must be a three-letter ISO code such as JMD.")
        }
        return Money(amount: amount, currency: currency)
    }

    /// A pack size: at most 40 characters, as a shelf label has room for. Counted in code
    /// points as sent (the contract's maxLength, and PostgreSQL's `length` in the column's check).
    package static func size(_ raw: String) throws(CatalogueError) -> String {
        guard raw.unicodeScalars.count <= 40, !raw.unicodeScalars.contains("\u{0}") else {
            throw .invalidField("size", "A pack size is at most 40 characters (\"500 g\", \"6 × 330 ml\").")
        }
        return raw.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    package static func text(_ raw: String, field: String, limit: Int) throws(CatalogueError) -> String {
        let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.count <= limit else { throw .invalidField(field, "The \(field) must be at most \(limit) characters.") }
        return text
    }
}
