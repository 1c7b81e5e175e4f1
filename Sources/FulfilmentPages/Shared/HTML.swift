import FulfilmentDomain
import PickList

/// A fragment of HTML. Built with string interpolation that escapes every interpolated value
/// unless it is itself `HTML`, so text from the database or a form can never become markup:
///
/// ```swift
/// let cell: HTML = "<td>\(order.customerName)</td>"   // the name is escaped
/// let row: HTML = "<tr>\(cell)</tr>"                  // the cell is embedded as it is
/// ```
struct HTML: Sendable, Equatable, ExpressibleByStringInterpolation {
    private(set) var markup: String

    init(stringLiteral value: String) { markup = value }
    init(stringInterpolation: StringInterpolation) { markup = stringInterpolation.markup }
    /// Markup known to be safe (a constant of this codebase). Never pass user data here.
    init(trusted markup: String) { self.markup = markup }

    static let empty = HTML(trusted: "")

    struct StringInterpolation: StringInterpolationProtocol {
        var markup = ""
        init(literalCapacity: Int, interpolationCount: Int) { markup.reserveCapacity(literalCapacity * 2) }
        mutating func appendLiteral(_ literal: String) { markup += literal }
        mutating func appendInterpolation(_ html: HTML) { markup += html.markup }
        mutating func appendInterpolation(_ html: HTML?) { markup += html?.markup ?? "" }
        mutating func appendInterpolation(_ fragments: [HTML]) { markup += fragments.map(\.markup).joined() }
        mutating func appendInterpolation(_ text: String) { markup += HTMLEscaping.escape(text) }
        mutating func appendInterpolation(_ text: String?) { markup += HTMLEscaping.escape(text ?? "") }
        mutating func appendInterpolation<T: CustomStringConvertible>(_ value: T) { markup += HTMLEscaping.escape(value.description) }
    }

    /// `fragments` joined, for lists built with `map`.
    static func join(_ fragments: some Sequence<HTML>) -> HTML { HTML(trusted: fragments.map(\.markup).joined()) }
    /// The fragments with `separator` (text, escaped) between them.
    static func join(_ fragments: some Sequence<HTML>, separator: String) -> HTML {
        HTML(trusted: fragments.map(\.markup).joined(separator: HTML("\(separator)").markup))
    }
}
