import Ink

/// A writer's Markdown as the HTML a page may show (issue 31): news, recipes and reviews keep
/// `bodyMarkdown` as written and answer `bodyHtml` from here. Raw HTML in the source is escaped
/// before Ink reads it (a writer's `<script>` is text), and what Ink makes passes the allow-list
/// (`SafeHTML`) on its way out, so neither a tag nor a link Ink builds from a writer's text
/// (`[x](javascript:...)`) reaches a page unchecked.
package enum Markdown {
    /// At most this many characters of Markdown are rendered (a body is bounded where it is written too).
    package static let maximumLength = 20_000

    package static func html(_ markdown: String) -> String {
        let source = String(markdown.unicodeScalars.prefix(maximumLength).map { $0 == "<" ? "&lt;" : String($0) }.joined())
        return SafeHTML.sanitize(MarkdownParser().html(from: source))
    }
}
