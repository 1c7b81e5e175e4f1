/// The temperature zone a location sits in. Zones are walked in declaration order, so cold goods
/// are picked last and spend the least time out of the cold.
public enum TemperatureZone: String, CaseIterable, Comparable, Sendable {
    case ambient
    case chilled
    case frozen

    /// Position in the walk: ambient, then chilled, then frozen.
    public var walkRank: Int {
        switch self {
        case .ambient: 0
        case .chilled: 1
        case .frozen: 2
        }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.walkRank < rhs.walkRank }

    /// "Ambient", "Chilled", "Frozen": the zone's heading on the sheet.
    var heading: String {
        switch self {
        case .ambient: "Ambient"
        case .chilled: "Chilled"
        case .frozen: "Frozen"
        }
    }
}

/// An aisle of the store, as printed on the sheet.
///
/// Two locations are in the same aisle when their whole `Aisle` values are equal; give every
/// location of an aisle the same code, name and walk order.
public struct Aisle: Hashable, Sendable {
    /// The code on the aisle's sign, e.g. "6". Compared numerically when it is digits.
    public var code: String
    /// The aisle's name, e.g. "Dairy".
    public var name: String
    /// Where the aisle comes in the store's walk: lower is visited first. It need not be
    /// contiguous or match the code (a store may walk 1, 2, 5, 4, 3 to follow its layout).
    public var walkOrder: Int

    public init(code: String, name: String, walkOrder: Int) {
        self.code = code
        self.name = name
        self.walkOrder = walkOrder
    }
}

/// Where a product lives: aisle, zone, bay along the aisle, shelf within the bay.
public struct ShelfLocation: Hashable, Sendable {
    public var aisle: Aisle
    public var zone: TemperatureZone
    /// Position along the aisle, numbered from the same end in every aisle; the walk goes up or
    /// down the bays depending on the aisle's place in the serpentine.
    public var bay: Int
    /// Shelf within the bay, e.g. "1" or "B". Ordered numerically when it is digits.
    public var shelf: String

    public init(aisle: Aisle, zone: TemperatureZone, bay: Int, shelf: String) {
        self.aisle = aisle
        self.zone = zone
        self.bay = bay
        self.shelf = shelf
    }
}
