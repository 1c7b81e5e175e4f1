/// The direction a picker walks an aisle's bays.
///
/// The route is a serpentine: the first aisle visited goes up the bays, the next comes back down,
/// and so on, so the picker leaves each aisle at the end where the next one starts. Only aisles
/// with something to pick count (an empty aisle is walked past, not through).
///
/// Alternation restarts with each zone: the first aisle of the ambient, chilled and frozen passes
/// is each walked ascending. Cold sections are usually in their own part of the store, entered
/// from the bay-1 end, and restarting means a stop's direction does not depend on whether some
/// other zone happened to have an odd or even number of aisles on this pick list.
public enum BayDirection: String, Hashable, Sendable {
    case ascending
    case descending

    /// The other direction: the next visited aisle's.
    public var reversed: BayDirection { self == .ascending ? .descending : .ascending }
}
