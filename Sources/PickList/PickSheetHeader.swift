import Foundation

/// What the caller knows about the pick list that the route doesn't: printed at the top of every sheet.
public struct PickSheetHeader: Hashable, Sendable {
    public var storeName: String
    /// The pick list's id, printed after the words "Pick list": the one name the console, the
    /// API and the sheet use for it (sheets once said "Batch").
    public var pickListID: String
    public var createdAt: Date
    /// The store's time zone; the date is printed in it, so the sheet doesn't depend on the
    /// server's zone.
    public var timeZone: TimeZone
    /// Each order's pickup slot as the caller prints it (`Mon 23 Nov 14:00–14:30`), next to its
    /// tote in the legend; orders without one are left out.
    public var slots: [OrderID: String]

    public init(
        storeName: String,
        pickListID: String,
        createdAt: Date,
        timeZone: TimeZone = TimeZone(identifier: "UTC")!,
        slots: [OrderID: String] = [:]
    ) {
        self.storeName = storeName
        self.pickListID = pickListID
        self.createdAt = createdAt
        self.timeZone = timeZone
        self.slots = slots
    }

    /// "2025-11-22 16:35 UTC": locale-free, so every server prints the same sheet.
    var createdText: String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: createdAt)
        func two(_ n: Int?) -> String { n.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "00" }
        let zone = timeZone.abbreviation(for: createdAt) ?? timeZone.identifier
        return "\(c.year ?? 0)-\(two(c.month))-\(two(c.day)) \(two(c.hour)):\(two(c.minute)) \(zone)"
    }

    /// The instant as RFC 3339 in UTC, for the HTML `<time datetime>` attribute.
    var createdMachineText: String {
        createdAt.formatted(.iso8601)
    }
}
