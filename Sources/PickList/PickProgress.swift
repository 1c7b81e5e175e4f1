/// How far one order's share of a stop has been picked.
public struct PickProgress: Hashable, Sendable {
    public let ordered: Int
    public let picked: Int

    public init(ordered: Int, picked: Int) {
        self.ordered = ordered
        self.picked = picked
    }

    /// Units still to pick; if the stop is closed with some left, the line was picked short.
    public var remaining: Int { ordered - picked }
    public var isComplete: Bool { picked >= ordered }
}
