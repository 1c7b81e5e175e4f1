/// Where an order is in its life. The transition rule (``allowedTargets``) is stated here for
/// the service, and once more in SQL for what the database decides under its locks:
///
/// ```
/// pending ──▶ packaged ──▶ delivering ──▶ completed   (completed only by a collection scan)
///    │            │  └──────────────────────▲
///    └────────────┴──────────┴──▶ cancelled
/// ```
/// `delivering` means the packed bags are on their way to the collection point (the desk or
/// a locker); an order can be collected once it is packaged.
///
/// Who asks which side:
/// - this one: `OrderTransitions.apply` (every move by hand, by the customer, by the expiry
///   sweep), the refusals' `allowed` lists and the console's buttons (``manualTargets``), and
///   `Collections.check`, which explains a refused scan before or after the database decided it;
/// - `order_transition_allowed(from, to)` (`sql/routines/order_transition_allowed.sql`):
///   `collect_order` (the scan, under the order's lock: may it move to `completed`?) and the
///   expiry sweep's `OrderExpiryQueries` (may it move to `cancelled`?).
///
/// `TransitionRuleAgreementTests` asks both for every pair of statuses and fails if they differ,
/// so change the two together.
public enum OrderStatus: String, Sendable, Codable, CaseIterable {
    case pending
    case packaged
    case delivering
    case completed
    case cancelled

    /// Every state this one may move to, collection included: the rule itself (see the type's
    /// comment for its SQL side, `order_transition_allowed`, and the test that they agree).
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

    /// Open orders hold reserved stock: those that may still move (``allowedTargets``).
    public var isOpen: Bool { !allowedTargets.isEmpty }

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
