/// The temperature zone a location sits in. Zones are walked in declaration order, so cold goods
/// are picked last and spend the least time out of the cold.
public enum TemperatureZone: String, CaseIterable, Comparable, Sendable {
    case ambient
    case chilled
    case frozen

    /// Position on the route: ambient, then chilled, then frozen.
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
