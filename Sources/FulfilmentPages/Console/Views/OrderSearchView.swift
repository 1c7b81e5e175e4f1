import Foundation
import FulfilmentDomain

/// "Find an order" (issue 46): the box, then what it found, newest first, each linked to the
/// order's page. The box is also on the board, so a phone call starts from where staff are.
enum OrderSearchView {
    /// The search box: a `GET` form, so a search is a shareable address and Back works.
    static func box(_ text: String, id: String = "order-search") -> HTML {
        """
        <form method="get" action="/console/order-search" class="search" role="search" id="\(id)">
        <label for="\(id)-q">Find an order</label>
        <input id="\(id)-q" name="q" type="search" value="\(text)" maxlength="\(OrderSearch.maximumLength)" autocomplete="off"
         aria-describedby="\(id)-hint">
        <button type="submit">Find</button>
        <p class="hint" id="\(id)-hint">An order number, the customer's name or email, or scan their receipt.</p>
        </form>
        """
    }

    /// `found` is nil before a search (or for one refused: `notice` says why).
    static func page(session: ConsoleSession, text: String, found: Page<OrderSummary>?, notice: Notice?) -> ConsolePage {
        let zone = TimeText.zone
        let results: HTML
        if let found {
            if found.items.isEmpty {
                results = "<p id=\"search-none\">No order of this store matches “\(text)”.</p>"
            } else {
                let rows = found.items.map { order -> HTML in
                    """
                    <tr id="found-\(order.number)">
                    <td data-label="Order"><a href="/console/orders/\(order.id)"><strong>\(order.number)</strong></a></td>
                    <td data-label="Status"><span class="status status-\(order.status.rawValue)">\(BoardView.word(order.status))</span>\(BoardView.flags(order))</td>
                    <td data-label="Customer">\(order.customerName)</td>
                    <td data-label="Placed">\(TimeText.local(order.createdAt, in: zone))</td>
                    <td data-label="Slot">\(order.pickupSlot.map { SlotText.label($0, in: zone) } ?? "—")</td>
                    <td data-label="Total" class="amount">\(MoneyText.format(order.total))</td>
                    </tr>
                    """
                }
                let more: HTML =
                    found.nextCursor.map { cursor in
                        var query = URLComponents()
                        query.queryItems = [URLQueryItem(name: "q", value: text), URLQueryItem(name: "cursor", value: cursor)]
                        // A `+` of a receipt's code must not come back as a space.
                        let encoded = (query.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B")
                        return "<p><a href=\"/console/order-search?\(encoded)\" id=\"search-more\">Older orders</a></p>"
                    } ?? .empty
                results = """
                    <table class="cards" id="search-results">
                    <caption>Orders matching “\(text)”, newest first</caption>
                    <thead><tr><th scope="col">Order</th><th scope="col">Status</th><th scope="col">Customer</th><th scope="col">Placed</th><th scope="col">Slot</th><th scope="col">Total</th></tr></thead>
                    <tbody>\(HTML.join(rows))</tbody></table>
                    \(more)
                    """
            }
        } else {
            results = .empty
        }
        return ConsolePage(
            title: text.isEmpty ? "Find an order" : "Find an order: \(text)", session: session,
            body: """
                <p><a href="/console/orders">← Open orders</a></p>
                <h1>Find an order</h1>
                \(notice.map { $0.render(id: "search-note") } ?? .empty)
                \(box(text))
                \(results)
                """)
    }
}
