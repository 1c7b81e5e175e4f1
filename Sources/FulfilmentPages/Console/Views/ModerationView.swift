import Foundation
import FulfilmentDomain

/// Moderation, for a store's manager and the chain's admin, shown by `GET /console/moderation`
/// and after its buttons (`POST /console/moderation/{kind}/{contentId}/hide` or `/restore`,
/// `POST /console/moderation/blocks`, `POST /console/moderation/blocks/{userId}/delete`): open
/// reports with Hide or Restore and Block author, and the authors blocked, each with Unblock.
enum ModerationView {
    static func page(
        session: ConsoleSession, csrf: HTML, notice: Notice?, reports: [ContentReport], blocks blocked: [PostingBlock]
    ) -> ConsolePage {
        let rows = reports.map { report -> HTML in
            let target = "/console/moderation/\(report.kind.rawValue)/\(report.contentID.uuidString.lowercased())"
            let toggle: HTML =
                report.hidden
                ? "<form method=\"post\" action=\"\(target)/restore\">\(csrf)<button type=\"submit\" class=\"secondary\">Restore</button></form>"
                : "<form method=\"post\" action=\"\(target)/hide\">\(csrf)<button type=\"submit\">Hide</button></form>"
            let block: HTML =
                report.author.id.map { author in
                    """
                    <form method="post" action="/console/moderation/blocks">\(csrf)<input type="hidden" name="userId" value="\(author.description)"><input type="hidden" name="reason" value="\(report.reason)"><button type="submit" class="secondary">Block author</button></form>
                    """
                } ?? .empty
            return """
                <tr id="report-\(report.id.description)">
                <td data-label="Kind">\(report.kind.rawValue)</td>
                <td><strong>\(report.excerpt)</strong></td>
                <td data-label="Author">\(report.author.id == nil ? Author.formerName : report.author.name)</td>
                <td data-label="Reason">\(report.reason)</td>
                <td data-label="Reported">\(TimeText.format(report.createdAt))</td>
                <td>\(toggle)\(block)</td>
                </tr>
                """
        }
        let blocks = blocked.map { block -> HTML in
            """
            <tr id="block-\(block.user.description)"><td><strong>\(block.name)</strong></td><td data-label="Reason">\(block.reason)</td>
            <td data-label="Since">\(TimeText.format(block.createdAt))</td>
            <td><form method="post" action="/console/moderation/blocks/\(block.user.description)/delete">\(csrf)<button type="submit" class="secondary">Unblock</button></form></td></tr>
            """
        }
        return ConsolePage(
            title: "Moderation", session: session,
            body: """
                <h1>Moderation</h1>
                \(notice.map { $0.render(id: "moderation-note") } ?? .empty)
                <h2>Open reports</h2>
                \(rows.isEmpty ? "<p class=\"hint\">No open reports.</p>" : "<table id=\"reports\" class=\"cards\"><thead><tr><th>Kind</th><th>Content</th><th>Author</th><th>Reason</th><th>Reported</th><th><span class=\"visually-hidden\">Actions</span></th></tr></thead><tbody>\(rows)</tbody></table>" as HTML)
                <h2>Blocked authors</h2>
                \(blocks.isEmpty ? "<p class=\"hint\">Nobody is blocked.</p>" : "<table id=\"blocks\" class=\"cards\"><thead><tr><th>Author</th><th>Reason</th><th>Since</th><th><span class=\"visually-hidden\">Actions</span></th></tr></thead><tbody>\(blocks)</tbody></table>" as HTML)
                """
        )
    }
}
