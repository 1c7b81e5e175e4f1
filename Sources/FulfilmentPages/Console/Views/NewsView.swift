import Foundation
import FulfilmentDomain

/// The news editor, for managers, shown by `GET /console/news`, `GET /console/news/{newsId}` (one
/// item in the form) and after its forms (`POST /console/news`, Preview or Save;
/// `POST /console/news/{newsId}/delete`): the store's items, drafts included, the Preview, and
/// the form that writes or edits one.
enum NewsView {
    /// `form` is what the editor shows (nil: an empty one); `preview` shows its body rendered above it.
    static func page(
        session: ConsoleSession, csrf: HTML, notice: Notice?, items: [NewsItem], form: ConsoleController.NewsForm?, preview: Bool
    ) -> ConsolePage {
        let rows = items.map { item -> HTML in
            let state: String = item.published ? (item.pinned ? "published, pinned" : "published") : "draft"
            return """
                <tr id="news-\(item.id.description)">
                <td><a href="/console/news/\(item.id.description)"><strong>\(item.title)</strong></a></td>
                <td data-label="State">\(state)</td>
                <td data-label="Comments">\(String(item.commentCount))</td>
                <td data-label="Updated">\(TimeText.format(item.updatedAt))</td>
                <td><form method="post" action="/console/news/\(item.id.description)/delete">\(csrf)<button type="submit" class="secondary">Delete</button></form></td>
                </tr>
                """
        }
        let list: HTML =
            rows.isEmpty
            ? "<p class=\"hint\">No news yet.</p>"
            : """
            <table id="news-items" class="cards"><thead><tr><th>Title</th><th>State</th><th>Comments</th><th>Updated</th><th><span class=\"visually-hidden\">Actions</span></th></tr></thead><tbody>\(rows)</tbody></table>
            """
        let rendered: HTML =
            preview
            ? """
            <section id="news-preview" class="preview" aria-label="Preview"><h2>Preview</h2><h3>\(form?.title ?? "")</h3>\(HTML(trusted: Markdown.html(form?.body ?? "")))</section>
            """
            : .empty
        let checked = { (on: Bool) -> HTML in on ? " checked" : "" }
        return ConsolePage(
            title: "News", session: session,
            body: """
                <h1>News</h1>
                \(notice.map { $0.render(id: "news-note") } ?? .empty)
                \(list)
                <h2>\(form?.id == nil ? "Write news" : "Edit news")</h2>
                \(rendered)
                <form method="post" action="/console/news" class="fields roomy" id="news-editor">
                \(csrf)
                <input type="hidden" name="newsId" value="\(form?.id?.description ?? "")">
                <label class="field wide">Title <input name="title" maxlength="200" required value="\(form?.title ?? "")"></label>
                <label class="field wide">Body (Markdown) <textarea name="bodyMarkdown" rows="10" cols="60">\(form?.body ?? "")</textarea></label>
                <label class="check"><input type="checkbox" name="published"\(checked(form?.published ?? false))> Published</label>
                <label class="check"><input type="checkbox" name="pinned"\(checked(form?.pinned ?? false))> Pinned</label>
                <button type="submit" name="action" value="preview" class="secondary" id="news-preview-button">Preview</button>
                <button type="submit" name="action" value="save" id="news-save">Save</button>
                </form>
                """
        )
    }
}
