/// Who wrote a piece of content, by the name on their account; `id` is nil once the account is
/// gone (the content stays, attributed to "a former customer").
package struct Author: Sendable, Equatable {
    package var id: UserID?
    package var name: String

    package static let formerName = "A former customer"
}
