import Foundation

/// Whether an open order will be ready on time (issue 47, "ready on time"), as
/// `order_timeliness` (`sql/routines/order_timeliness.sql`) decides it at a given moment: the
/// rule lives there, once, so the board, the API, the sweep and the tests all read the same one.
public struct OrderTimeliness: Sendable, Equatable {
    /// On track, at risk (the work before it will not be done by `readyBy`), or late (not packed
    /// and `readyBy` has passed).
    public enum Status: String, Sendable, Equatable, CaseIterable {
        case onTrack = "on_track"
        case atRisk = "at_risk"
        case late
    }

    /// When it must be packed: its slot's start less the store's `readyLeadMinutes`.
    public var readyBy: Date
    public var status: Status
    /// When it will be packed if the pickers work through the queue before it at the rota's
    /// rate; nil once it is packed.
    public var expectedReady: Date?

    package init(readyBy: Date, status: Status, expectedReady: Date?) {
        self.readyBy = readyBy
        self.status = status
        self.expectedReady = expectedReady
    }
}
