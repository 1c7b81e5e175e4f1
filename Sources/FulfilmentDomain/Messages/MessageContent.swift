import Foundation

/// What a template reads when it renders a message: the rows as they are now (the order, its
/// store, the reader's name) and the links it carries. Loaded by `Mail.content(of:)`.
package struct MessageContent: Sendable {
    package struct Store: Sendable {
        package var name: String
        package var address: String
        package var logoURL: String?
        /// The store's zone: every time in its messages is the store's clock.
        package var timeZone: TimeZone?
        /// Opening ranges by ISO weekday (the calendar's), for "opening hours" in a ready message.
        package var hours: [StoreCalendar.Range]
    }

    package var store: Store?
    package var order: Order?
    /// The reader's name, as the account has it now.
    package var name: String
    /// Where links point: `FULFILMENT_PUBLIC_URL`, or the service's own address.
    package var baseURL: String
    /// The link a password reset or an email confirmation carries (its token made again from the
    /// row it names, `LinkToken`); nil for other kinds.
    package var actionURL: URL?
    /// One-click unsubscribe from this kind (optional messages only).
    package var unsubscribe: URL?

    package func url(_ path: String) -> URL? { URL(string: baseURL + path) }
}
