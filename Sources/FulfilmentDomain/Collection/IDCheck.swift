import Foundation

/// An order holding age-restricted goods: the highest minimum age among its lines (lines removed
/// at the desk aside) and, once handed over, who confirmed the customer's age, how and when.
/// A date of birth is never asked for nor kept.
public struct IDCheck: Sendable, Equatable {
    public var minimumAge: Int
    public var confirmation: IDConfirmation?
}

public struct IDConfirmation: Sendable, Equatable {
    /// How staff confirmed the age: looked at the ID, or scanned it with a reader.
    public enum Method: String, Sendable, CaseIterable {
        case seen
        case scanned
    }

    public var method: Method
    public var confirmedBy: UserID
    public var confirmedByName: String
    public var confirmedAt: Date
}
