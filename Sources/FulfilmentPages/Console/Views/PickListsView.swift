import Foundation
import FulfilmentDomain

/// The open pick lists, shown by `GET /console/pick-lists`, after completing one
/// (`POST /console/pick-lists/{id}/complete`) and when a new one is refused
/// (`POST /console/pick-lists`): each list with Pick mode and Print, and the form that creates one.
enum PickListsView {
    static func page(session: ConsoleSession, csrf: HTML, notice: Notice?, open: [PickListSummary]) -> ConsolePage {
        let rows = HTML.join(
            open.map { pickList in
                let key = pickList.id.description
                return """
                    <tr><td data-label="Created">\(TimeText.format(pickList.createdAt))</td><td data-label="Orders">\(pickList.orderCount)</td>
                    <td><a class="button" href="/console/pick-lists/\(key)/pick">Pick mode</a>
                    <a class="button secondary" href="/console/pick-lists/\(key)/print" target="_blank">Print (A4)</a></td></tr>
                    """
            })
        let list: HTML =
            open.isEmpty
            ? "<p class=\"hint\">No open pick lists.</p>"
            : """
            <table id="open-pick-lists" class="cards compact"><thead><tr><th>Created</th><th>Orders</th><th><span class=\"visually-hidden\">Actions</span></th></tr></thead><tbody>\(rows)</tbody></table>
            """
        let noticeHTML = notice.map { $0.render(id: "pick-note") } ?? .empty
        return ConsolePage(
            title: "Pick lists", session: session,
            body: """
                <h1>Pick lists</h1>
                \(noticeHTML)
                <form method="post" action="/console/pick-lists" class="actions" id="create-pick-list">
                \(csrf)
                <label for="maxOrders">Orders on the new list</label>
                <input id="maxOrders" name="maxOrders" type="number" min="1" max="200" value="10">
                <button type="submit" id="create">Create a pick list</button>
                </form>
                \(list)
                """
        )
    }
}
