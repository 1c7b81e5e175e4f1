import Foundation
import FulfilmentDomain

/// The collection desk's page, shown by `GET /console/desk` and after each desk form
/// (`POST /console/desk/scan`, `/payments`, `/collections`, `/substitutions`, `/restricted-lines`):
/// the scan box, the verdict (``DeskVerdict``) or "Ready", and who is waiting at the kerb.
/// The arrivals section is the board's (`GET /console/orders`) too.
enum DeskView {
    static func page(
        session: ConsoleSession, csrf: HTML, verdict: DeskVerdict?, note: Notice?, waiting: [OrderSummary], now: Date
    ) -> ConsolePage {
        let noteHTML = note.map { $0.render(id: "desk-note") } ?? .empty
        return ConsolePage(
            title: "Desk", session: session,
            body: """
                <h1 class="visually-hidden">Collection desk</h1>
                <div class="desk">
                <form method="post" action="/console/desk/scan" class="scan" id="scan-form" data-repeat-window-ms="2000">
                \(csrf)
                <label for="token">Scan the customer's code, or type the letters under it (KDPT MRGB HLCN), or the order number and their surname (1005 Brown), then Enter</label>
                <input id="token" name="token" class="scan-input" autofocus autocomplete="off" autocapitalize="off" spellcheck="false">
                <button type="submit">Check</button>
                <button type="button" id="camera" class="secondary" hidden>Scan with camera</button>
                </form>
                <p id="repeat-note" class="hint" hidden>Same code again within two seconds: counted once.</p>
                <video id="camera-view" hidden muted playsinline></video>
                \(noteHTML)
                \(verdict.map { $0.render(csrf: csrf) } ?? "<p class=\"hint\" id=\"desk-idle\">Ready for the next customer.</p>")
                \(Self.arrivalsSection(waiting, now: now, csrf: nil))
                </div>
                """,
            scripts: ["desk.js"], bodyClass: "desk"
        )
    }

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
