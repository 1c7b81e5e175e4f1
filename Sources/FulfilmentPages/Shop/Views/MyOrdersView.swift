import Foundation
import FulfilmentDomain

/// The customer's orders, shown by `GET /orders`: each with its status and progress, items, total
/// and when it was placed, linking to its page (``OrderPageView``).
enum MyOrdersView {
    static func page(session: ConsoleSession, orders: [OrderSummary]) -> ConsolePage {
        let rows = HTML.join(
            orders.map { order in
                """
                <tr><td><a href="/orders/\(order.id)">Order \(order.number)</a></td>
                <td data-label="Status"><span class="status status-\(order.status.rawValue)">\(OrderPageView.trackerLabel(order.status))</span>
                <progress max="100" value="\(Int(order.status.progress * 100))" aria-label="Progress of order \(order.number)"></progress></td>
                <td data-label="Items">\(order.itemCount)</td><td data-label="Total">\(MoneyText.format(order.total))</td>
                <td data-label="Placed">\(TimeText.format(order.createdAt))</td></tr>
                """
            })
        let list: HTML =
            orders.isEmpty
            ? "<p class=\"hint\">No orders yet.</p>"
            : """
            <table class="cards compact"><thead><tr><th>Order</th><th>Status</th><th>Items</th><th>Total</th><th>Placed</th></tr></thead>
            <tbody>\(rows)</tbody></table>
            """
        return ConsolePage(title: "My orders", session: session, body: "<h1>My orders</h1>\(list)")
    }
}
