import Foundation

/// How a product is taxed (issue 48): its jurisdiction says at what rate (`tax_rates`). Zero and
/// exempt are both charged nothing; a receipt names them apart, as the tax authority does.
public enum TaxClass: String, Sendable, Equatable, CaseIterable, Codable {
    case standard, reduced, zero, exempt

    /// In a sentence: "standard rate", "exempt".
    public var words: String {
        switch self {
        case .standard: "standard rate"
        case .reduced: "reduced rate"
        case .zero: "zero-rated"
        case .exempt: "exempt"
        }
    }
}

/// What an order line kept when it was written: its product's class and the rate in force at
/// its store that day, in basis points (2000 is 20 %). A later rate change never changes it.
public struct LineTax: Sendable, Equatable {
    public var taxClass: TaxClass
    public var rateBasisPoints: Int

    public init(taxClass: TaxClass, rateBasisPoints: Int) {
        self.taxClass = taxClass
        self.rateBasisPoints = rateBasisPoints
    }
}

/// The store's tax as a receipt prints it: the tax's name ("VAT", "GCT"), the seller's
/// registration number if it has one, and the seller's name and address.
public struct TaxSeller: Sendable, Equatable, Decodable {
    public var name: String
    public var number: String?
    public var seller: String
    public var address: String

    public init(name: String, number: String?, seller: String, address: String) {
        self.name = name
        self.number = number
        self.seller = seller
        self.address = address
    }
}
