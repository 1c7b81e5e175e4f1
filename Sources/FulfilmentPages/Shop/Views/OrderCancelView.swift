import Foundation
import FulfilmentDomain

/// "Cancel order 1042?", shown by `GET /orders/{orderId}/cancel`: what the order holds and its
/// total, then the one button that cancels (`POST`, `cancelOrder`) and the way back, so a stray
/// tap on the order's page never cancels an order.
enum OrderCancelView {
    static func page(frame: ShopPageView.Frame, order: Order) -> ConsolePage {
        let items = order.lines.reduce(0) { $0 + $1.held }
        return ShopPageView.page(
            "Cancel order \(order.number)?", frame: frame,
            body: """
                <h1>Cancel order \(order.number)?</h1>
                <p>\(items == 1 ? "1 item" : "\(items) items"), total <strong>\(MoneyText.format(order.total))</strong>. The store puts everything back on the shelf and you pay nothing.</p>
                <form method="post" action="/orders/\(order.id)/cancel" class="order-actions" id="cancel-form">
                \(ConsolePage.csrfInput(frame.session))
                <button type="submit" id="confirm-cancel">Yes, cancel the order</button>
                <a class="button secondary" href="/orders/\(order.id)" id="keep-order">No, keep it</a>
                </form>
                """)
    }
}
