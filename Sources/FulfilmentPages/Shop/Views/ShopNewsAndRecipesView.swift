import Foundation
import FulfilmentDomain

/// What the shop's news pages (``ShopNewsView``) and recipe pages (``ShopRecipeView``) share: the
/// links between them, dates on the store's clock, a body as readers may see it, the comments
/// with their forms, and the page saying an item is not there.
enum ShopNewsAndRecipesView {
    /// The two community pages, linked from each other: the shop's navigation is drawn for every
    /// page of the shop, so these links are how one reaches the other without going back.
    static func links(current: String) -> HTML {
        let pages = [("/shop/news", "News"), ("/shop/recipes", "Recipes")]
        let items = HTML.join(
            pages.map { path, label in
                path == current
                    ? "<li><a href=\"\(path)\" aria-current=\"page\">\(label)</a></li>"
                    : "<li><a href=\"\(path)\">\(label)</a></li>"
            })
        return "<nav class=\"community-links\" aria-label=\"News and recipes\"><ul>\(items)</ul></nav>"
    }

    /// The day of `date` as the store's clock shows it (`Wed 1 Dec 2026`), in a `<time>` whose
    /// `datetime` is that local date: a reader near the store sees the day the store meant,
    /// whatever the server's zone. UTC when the store has no calendar.
    static func day(_ date: Date, zone: TimeZone?) -> HTML {
        let local = LocalDate(date, in: zone ?? TimeZone(identifier: "UTC")!)
        let (year, month, day) = local.components
        let text = "\(SlotText.weekdays[local.weekday - 1]) \(day) \(SlotText.months[month - 1]) \(year)"
        return "<time datetime=\"\(local.description)\">\(text)</time>"
    }

    /// The day and the store's time of `date` (`Wed 1 Dec 2026, 18:30`), for comments.
    static func moment(_ date: Date, zone: TimeZone?) -> HTML {
        let zone = zone ?? TimeZone(identifier: "UTC")!
        let local = LocalDate(date, in: zone)
        let (year, month, day) = local.components
        let text = "\(SlotText.weekdays[local.weekday - 1]) \(day) \(SlotText.months[month - 1]) \(year), \(SlotText.time(date, zone))"
        return "<time datetime=\"\(local.description)\">\(text)</time>"
    }

    /// A writer's Markdown as the page shows it: only through `Markdown.html`, which escapes raw
    /// HTML and keeps what Ink makes to the allow-list, so it is the one place a body becomes
    /// markup (never the Markdown's own text).
    static func body(_ markdown: String) -> HTML {
        HTML(trusted: Markdown.html(markdown))
    }

    /// A body as a line of plain text for a listing: the sanitised HTML without its tags, its
    /// images dropped, at most `length` characters cut at a word. Made from the same rendering as
    /// the article, so a summary never shows Markdown's `**` or a link's address.
    static func summary(_ markdown: String, length: Int = 180) -> String {
        var text = Markdown.html(String(markdown.unicodeScalars.prefix(4 * length)))
        // Inline tags go without a trace ("see <a>more</a>." is "see more."); a block's end is a space.
        text = text.replacingOccurrences(of: "</?(a|strong|em|b|i|code|del|s)\\b[^>]*>", with: "", options: .regularExpression)
        text = text.replacingOccurrences(of: "<[^>]*>", with: " ", options: .regularExpression)
        for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&#x27;", "'"), ("&amp;", "&")] {
            text = text.replacingOccurrences(of: entity, with: character)
        }
        let words = text.split(whereSeparator: \.isWhitespace)
        var summary = ""
        for word in words {
            guard summary.count + word.count + 1 <= length else { return summary + "…" }
            summary += summary.isEmpty ? String(word) : " " + word
        }
        return summary
    }

    /// Who wrote it: their account's name, or "A former customer" once the account is gone.
    static func authorName(_ author: Author) -> String {
        author.id == nil ? Author.formerName : author.name
    }

    /// Where the comment forms post, and what they draw.
    struct CommentForms: Sendable {
        /// `POST` here writes a comment (`createNewsComment`, `createRecipeComment`).
        var post: String
        /// `POST {report}/{commentId}/report` reports one (`reportContent`).
        var report: String
        /// The page itself, for the link to more comments and the sign-in that comes back to it.
        var page: String
        /// A visitor's way to comment: the sign-in page that comes back here.
        var signIn: String
        /// What the customer wrote, kept when it was refused (too long, blank).
        var draft: String = ""
    }

    /// The comments, oldest first, a page at a time (`next` is the cursor of the next), each
    /// with its author, when, its body (sanitised), and for a signed-in reader other than its
    /// author a way to report it; then the form to write one (a visitor: a link to sign in). A
    /// hidden comment is shown only to its author (and moderators): they are told it is hidden.
    static func comments(
        _ comments: [UserComment], count: Int, next: String?, zone: TimeZone?, session: ConsoleSession?, forms: CommentForms
    ) -> HTML {
        let fields = ShopPageView.formFields(session: session, back: forms.page)
        let reader = session?.identity.userID
        let items = HTML.join(
            comments.map { comment -> HTML in
                let own = reader != nil && comment.author.id == reader
                let hidden: HTML =
                    comment.hidden ? " · <span class=\"status status-cancelled\">Hidden by a moderator: only you can see it</span>" : .empty
                let report: HTML =
                    session != nil && !own && !comment.hidden
                    ? """
                    <details class="report"><summary>Report this comment</summary>
                    <form method="post" action="\(forms.report)/\(comment.id)/report" class="report-form">\(fields)
                    <label for="reason-\(comment.id)">Why (optional)</label>
                    <input id="reason-\(comment.id)" name="reason" maxlength="\(ContentReport.reasonLength)">
                    <button type="submit" class="secondary">Send report</button>
                    </form></details>
                    """
                    : .empty
                return """
                    <li class="comment" id="comment-\(comment.id)">
                    <p class="hint"><strong>\(authorName(comment.author))</strong> · \(moment(comment.createdAt, zone: zone))\(hidden)</p>
                    <div class="comment-body">\(body(comment.bodyMarkdown))</div>
                    \(report)
                    </li>
                    """
            })
        var list: HTML =
            comments.isEmpty
            ? "<p class=\"hint\" id=\"no-comments\">No comments yet.</p>" : "<ol class=\"comments\" id=\"comment-list\">\(items)</ol>"
        if let next {
            var components = URLComponents()
            components.path = forms.page
            components.queryItems = [URLQueryItem(name: "cursor", value: next)]
            list =
                "\(list)<p><a class=\"button secondary\" id=\"more-comments\" href=\"\(components.string ?? forms.page)#comments\">More comments</a></p>"
        }
        let write: HTML =
            session == nil
            ? "<p id=\"comment-sign-in\"><a href=\"\(forms.signIn)\">Sign in to comment</a></p>"
            : """
            <form method="post" action="\(forms.post)" class="comment-form" id="comment-form">\(fields)
            <label for="comment-body">Your comment</label>
            <p class="hint" id="comment-hint">Up to \(String(UserComment.bodyLength)) characters. Markdown works: **bold**, *italic*, lists and links.</p>
            <textarea id="comment-body" name="bodyMarkdown" rows="4" maxlength="\(UserComment.bodyLength)" required aria-describedby="comment-hint">\(forms.draft)</textarea>
            <button type="submit" id="post-comment">Post comment</button>
            </form>
            """
        return """
            <section class="comments-section" id="comments" aria-labelledby="comments-heading">
            <h2 id="comments-heading">Comments (\(count))</h2>
            \(list)
            \(write)
            </section>
            """
    }

    /// A news item or recipe that is not there for this reader (another store's, hidden, a draft,
    /// deleted, or an address that is no id): the shop's page saying so, with the way back.
    static func notFound(frame: ShopPageView.Frame, text: String, back: (path: String, label: String)) -> ConsolePage {
        ShopPageView.page(
            "Not found", frame: frame,
            body: """
                <h1>Not found</h1>
                <p id="not-found">\(text)</p>
                <p><a href="\(back.path)" id="back">\(back.label)</a></p>
                """)
    }
}
