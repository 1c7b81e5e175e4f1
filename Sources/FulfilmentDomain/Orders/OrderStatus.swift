/// Where an order is in its life. The transition rule lives here and nowhere else:
///
/// ```
/// pending ──▶ packaged ──▶ delivering ──▶ completed   (completed only by a collection scan)
///    │            │  └──────────────────────▲
///    └────────────┴──────────┴──▶ cancelled
/// ```
/// `delivering` means the packed bags are on their way to the collection point (the desk or
/// a locker); an order can be collected once it is packaged.
public enum OrderStatus: String, Sendable, Codable, CaseIterable {
    case pending
    case packaged
    case delivering
    case completed
    case cancelled

    /// Every state this one may move to, collection included.
    public var allowedTargets: [OrderStatus] {
        switch self {
        case .pending: [.packaged, .cancelled]
        case .packaged: [.delivering, .completed, .cancelled]
        case .delivering: [.completed, .cancelled]
        case .completed, .cancelled: []
        }
    }

    public func canTransition(to target: OrderStatus) -> Bool { allowedTargets.contains(target) }

    /// The targets staff may pick by hand: everything allowed except `completed`, which only a
    /// collection scan reaches.
    public var manualTargets: [OrderStatus] { allowedTargets.filter { $0 != .completed } }

    /// Open orders hold reserved stock.
    public var isOpen: Bool { self != .completed && self != .cancelled }

    /// The customer's tracker: pending 0.25, packaged 0.5, delivering 0.75, completed 1.0
    /// (a cancelled order shows no progress).
    public var progress: Double {
        switch self {
        case .pending: 0.25
        case .packaged: 0.5
        case .delivering: 0.75
        case .completed: 1.0
        case .cancelled: 0
        }
    }
}
