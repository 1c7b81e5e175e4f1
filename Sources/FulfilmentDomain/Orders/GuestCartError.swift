import Foundation
import HTTPTypes

/// The bounds of a visitor's cart (migration 047), as HTTP: what keeps a cart nobody signed in
/// for from filling the database.
package enum GuestCartError: Error, APIErrorConvertible, Equatable {
    /// A 51st product.
    case cartFull
    /// The 21st cart from one client address in a day.
    case tooManyCarts

    package var apiError: APIError {
        switch self {
        case .cartFull:
            APIError(
                .conflict, "cart_full",
                "A cart holds at most \(GuestCarts.maximumLines) products before you sign in. Sign in or create an account to add more.")
        case .tooManyCarts:
            APIError(.tooManyRequests, "too_many_carts", "Too many new carts from this address today. Sign in or create an account to shop.")
        }
    }
}
