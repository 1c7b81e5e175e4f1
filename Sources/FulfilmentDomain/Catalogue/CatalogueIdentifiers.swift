import Foundation

public enum ProductTag {}
public enum AisleTag {}
/// A product's id (typed, so it can't be passed where a store or user id is expected).
public typealias ProductID = ID<ProductTag>
/// One of a store's aisles (the chain admin's aisle routes and `fulfilment store aisle` name them).
public typealias AisleID = ID<AisleTag>

extension ID {
    /// Parses a path or query id, or throws `notFound` (a malformed id names nothing).
    package static func parse(_ text: String, notFound: CatalogueError) throws(CatalogueError) -> Self {
        guard let id = Self(text) else { throw notFound }
        return id
    }
}

public enum CatalogueImportTag {}
/// A CSV import of the catalogue or a store's stock (`CatalogueImports`).
public typealias CatalogueImportID = ID<CatalogueImportTag>
