import Foundation

/// The temperature a bag must be kept at until it is handed over (issue 47).
public enum BagZone: String, Sendable, Equatable, CaseIterable {
    case ambient, chilled, frozen
}

/// One bag of a packed order: its number (1...n), zone and the code its label's barcode carries
/// ("1042-2": the order's number and the bag's), where it was staged and when it left the store.
public struct OrderBag: Sendable, Equatable {
    public var number: Int
    public var zone: BagZone
    public var code: String
    public var place: Place?
    public var stagedAt: Date?
    public var handedOverAt: Date?

    /// The staging place a bag is in: its name and kind, as the desk reads them out.
    public struct Place: Sendable, Equatable {
        public var id: StagingPlaceID
        public var name: String
        public var kind: StagingPlaceKind
    }

    /// How many bags an order can be packed in: a number a desk can count out, never an
    /// unbounded loop or an overflow.
    package static let count = 1...50

    /// A scanned or typed code as the bag code it stands for, `1042-2` (surrounding whitespace,
    /// a scanner's Enter, dropped); nil when it cannot be one (`order_bags.code`'s own check).
    package static func code(scanned: String) -> String? {
        let code = scanned.trimmingCharacters(in: .whitespacesAndNewlines)
        let parts = code.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...18).contains(parts[0].count), (1...2).contains(parts[1].count),
            parts.allSatisfy({ $0.unicodeScalars.allSatisfy { (48...57).contains($0.value) } })
        else { return nil }
        return code
    }
}

/// An order's bags and whether its store stages bags at all (keeps staging places).
public struct OrderBags: Sendable, Equatable {
    public var bags: [OrderBag] = []
    /// The store keeps staging places: its orders are ready for pickup only once every bag is staged.
    public var placesKept: Bool = false

    public init(bags: [OrderBag] = [], placesKept: Bool = false) {
        self.bags = bags
        self.placesKept = placesKept
    }

    /// Bags staged in a place (handed over ones included: they were staged, or left from the desk).
    public var staged: Int { bags.count { $0.place != nil || $0.handedOverAt != nil } }
    /// Every bag is where the desk can find it: always so at a store without places.
    public var allStaged: Bool { !placesKept || staged == bags.count }
}

extension Order {
    /// Packed (or out for delivery) and, where the store stages bags, every bag staged: what the
    /// desk and the board call "ready for pickup". The order's state machine is unchanged.
    public var readyForPickup: Bool { (status == .packaged || status == .delivering) && bags.allStaged }
}
