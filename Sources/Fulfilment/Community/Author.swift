/// Who wrote a piece of content, by the name on their account; `id` is nil once the account is
/// gone (the content stays, attributed to "a former customer").
struct Author: Sendable, Equatable {
    var id: UserID?
    var name: String

    static let formerName = "A former customer"
}
