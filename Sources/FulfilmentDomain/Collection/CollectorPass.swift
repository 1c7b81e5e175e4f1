import Foundation

/// A collector pass (issue 48): someone the customer named to collect their order, with a
/// pickup token of their own (`PickupToken` format version 2). The desk accepts it as it accepts
/// the receipt; the customer may revoke it until it is used.
public struct CollectorPass: Sendable, Equatable {
    public var id: UUID
    public var orderID: OrderID
    /// Who will collect, as the customer wrote it.
    public var name: String
    /// The pass's token text, for its QR: shown to the order's customer only.
    public var text: String
    public var createdAt: Date
    public var expiresAt: Date
    public var revokedAt: Date?
    /// When it collected the order.
    public var usedAt: Date?

    /// A name is 1 to this many code points as sent, not only spaces.
    public static let maximumNameLength = 80
    /// Live passes an order may have at once: a few people, not a distribution list.
    public static let maximumLive = 5

    public enum Status: String, Sendable {
        case active, revoked, expired, used
    }

    public func status(at now: Date) -> Status {
        if usedAt != nil { return .used }
        if revokedAt != nil { return .revoked }
        return now >= expiresAt ? .expired : .active
    }

    /// The name as kept: surrounding spaces off; nil when it is empty, only spaces, too long as
    /// sent, or holds control characters (a name is printed on the desk's screen).
    public static func name(_ raw: String) -> String? {
        guard raw.unicodeScalars.count <= maximumNameLength,
            !raw.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { return nil }
        let trimmed = raw.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? nil : trimmed
    }
}
