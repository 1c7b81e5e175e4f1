import HTTPTypes

/// What erasing an account can be refused for, and how each looks over HTTP.
package enum PrivacyError: Error, APIErrorConvertible, Equatable {
    /// Orders still pending, packaged or delivering: cancel or collect them first.
    case openOrders([JSONValue])
    case userNotFound
    case cannotEraseSelf

    package var apiError: APIError {
        switch self {
        case .openOrders(let orders):
            APIError(
                .conflict, "open_orders", "The account has orders still open; cancel or collect them first.",
                details: ["orders": .array(orders)])
        case .userNotFound: .notFound("The user")
        case .cannotEraseSelf: APIError(.conflict, "cannot_erase_self", "Erase your own account with DELETE /v1/me.")
        }
    }
}
