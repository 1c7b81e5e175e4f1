/// The bounds every piece of community text is held to, counted in Unicode code points (the
/// contract's `maxLength`): titles are trimmed and not blank, bodies bounded.
package enum ContentText {
    package static let titleLength = 200
    package static let bodyLength = Markdown.maximumLength

    /// `text` trimmed, or `invalidField(field)` when blank or longer than `maximum`.
    package static func title(_ text: String, field: String = "title", maximum: Int = titleLength) throws(ContentError) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .invalidField(field, "Write something: it cannot be blank.") }
        guard trimmed.unicodeScalars.count <= maximum else { throw .invalidField(field, "At most \(maximum) characters.") }
        return trimmed
    }

    /// `text` as written, or `invalidField(field)` when longer than `maximum` (or blank, when `required`).
    package static func body(_ text: String, field: String = "bodyMarkdown", maximum: Int = bodyLength, required: Bool = false)
        throws(ContentError) -> String
    {
        if required, text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            throw .invalidField(field, "Write something: it cannot be blank.")
        }
        guard text.unicodeScalars.count <= maximum else { throw .invalidField(field, "At most \(maximum) characters.") }
        return text
    }
}
