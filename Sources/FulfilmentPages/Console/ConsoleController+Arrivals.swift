import Foundation
import FulfilmentDomain

/// "I'm here" on the console (issue 27): the board's and the desk's list of customers waiting
/// at the kerb, longest wait first, with the bay, how long they have waited (the page's script
/// counts it up live from `data-since`) and, on the board, "Bring out" (an order still packed
/// goes to the collection point, `transitionOrder`, with the bay in its reason).
extension ConsoleController {
    /// The open orders whose customer has arrived, longest wait first.
    static func waiting(_ orders: [OrderSummary]) -> [(OrderSummary, OrderArrival)] {
        orders.compactMap { order in order.arrival.map { (order, $0) } }
            .filter { $0.0.status == .packaged || $0.0.status == .delivering }
            .sorted { $0.1.at < $1.1.at }
    }

    /// The arrivals section; `csrf` adds "Bring out" (the board), nil shows the list alone (the desk).
    static func arrivalsSection(_ orders: [OrderSummary], now: Date, csrf: HTML?) -> HTML {
        let waiting = waiting(orders)
        let rows = HTML.join(
            waiting.map { order, arrival in
                let place: String = [arrival.bay.map { "Bay \($0)" }, arrival.vehicle, arrival.note].compactMap { $0 }.joined(separator: " · ")
                var action: HTML = .empty
                if let csrf {
                    action =
                        order.status == .packaged
                        ? """
                        <form method="post" action="/console/orders/\(order.id)/transitions">
                        \(csrf)<input type="hidden" name="to" value="delivering">
                        <input type="hidden" name="reason" value="brought out\(arrival.bay.map { " to bay \($0)" } ?? "")">
                        <button type="submit" id="bring-out-\(order.number)">Bring out</button>
                        </form>
                        """ : "<span class=\"status status-delivering\">at the collection point</span>"
                }
                let since = Int64(arrival.at.timeIntervalSince1970 * 1000)
                return """
                    <li class="arrival" id="arrival-\(order.number)"><strong>\(order.number)</strong> \(order.customerName) ·
                    <span class="bay">\(place.isEmpty ? "at the store" : place)</span> ·
                    waiting <span class="wait" data-since="\(since)">\(TimeText.age(since: arrival.at, now: now))</span>\(action)</li>
                    """
            })
        let list: HTML = waiting.isEmpty ? "<p class=\"hint\" id=\"no-arrivals\">Nobody is waiting.</p>" : "<ul>\(rows)</ul>"
        return """
            <section class="arrivals" id="arrivals" aria-live="polite">
            <h2>Arrived <span class="hint">(\(waiting.count))</span></h2>
            \(list)
            </section>
            """
    }
}
