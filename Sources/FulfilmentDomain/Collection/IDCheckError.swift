import HTTPTypes

/// The refusals of the age check, and how each looks over HTTP.
package enum IDCheckError: Error, APIErrorConvertible, Equatable {
    /// Handing over restricted goods without confirming the customer's age.
    case required(minimumAge: Int)
    /// Removing restricted lines from an order that has none left.
    case nothingToRemove
    /// Removing lines from an order already paid would need a refund first.
    case orderPaid

    package var apiError: APIError {
        switch self {
        case .required(let age):
            APIError(
                HTTPResponse.Status(code: 428, reasonPhrase: "Precondition Required"), "id_check_required",
                "This order holds goods for customers aged \(age) or over: confirm their ID (idChecked: true) before handing it over.",
                details: ["minimumAge": .int(age)])
        case .nothingToRemove:
            APIError(.conflict, "no_restricted_lines", "This order has no age-restricted lines to remove.")
        case .orderPaid:
            APIError(.conflict, "already_paid", "This order is already paid: its lines stay as they are.")
        }
    }
}
