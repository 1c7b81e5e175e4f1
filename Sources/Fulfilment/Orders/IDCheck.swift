import Foundation
import HTTPTypes

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

/// The refusals of the age check, and how each looks over HTTP.
enum IDCheckError: Error, APIErrorConvertible, Equatable {
    /// Handing over restricted goods without confirming the customer's age.
    case required(minimumAge: Int)
    /// Removing restricted lines from an order that has none left.
    case nothingToRemove
    /// Removing lines from an order already paid would need a refund first.
    case orderPaid

    var apiError: APIError {
        switch self {
        case .required(let age):
            APIError(HTTPResponse.Status(code: 428, reasonPhrase: "Precondition Required"), "id_check_required",
                "This order holds goods for customers aged \(age) or over: confirm their ID (idChecked: true) before handing it over.",
                details: ["minimumAge": .int(age)])
        case .nothingToRemove:
            APIError(.conflict, "no_restricted_lines", "This order has no age-restricted lines to remove.")
        case .orderPaid:
            APIError(.conflict, "already_paid", "This order is already paid: its lines stay as they are.")
        }
    }
}
