import Foundation
import FulfilmentDomain

/// The store finder, shown by `GET /shop/stores` (`listStores`; where a new shopper lands) and
/// by a refused `POST /shop/store` (`chooseStore`): the chain's stores, nearest first from where
/// the shopper is (their browser's location, asked only when they press "Use my location") or
/// from the town they typed; each with its address, telephone, opening hours this week on its
/// own clock, how far it is, and "Shop here" (the shopper's own store marked).
enum ShopStoresView {
    /// One store as the finder lists it.
    struct Entry: Sendable {
        var store: StoreRecord
        /// Metres from where the shopper is, when both are known.
        var distance: Double?
        /// Its week: the store's time zone and each day's hours; nil without a calendar.
        var week: (TimeZone, [PickupSlots.OpeningDay])?
    }

    static func page(frame: ShopPageView.Frame, entries: [Entry], current currentStore: StoreRecord?, town: String, located: Bool) -> ConsolePage {
        let fields = ShopPageView.formFields(session: frame.session, back: "/shop")
        let items = HTML.join(
            entries.map { entry in
                let store = entry.store
                let current = store.id == currentStore?.id
                let distance: HTML = entry.distance.map { "<span class=\"distance\">\(distanceText($0))</span>" } ?? .empty
                let phone: HTML =
                    store.phone.isEmpty ? .empty : "<a href=\"tel:\(store.phone.filter { $0.isNumber || $0 == "+" })\">\(store.phone)</a>"
                return """
                    <li class="store\(HTML(trusted: current ? " current" : ""))" id="store-\(store.id)">
                    <h2>\(store.name) \(distance)</h2>
                    <p class="hint">\(store.address) \(phone)</p>
                    \(week(entry.week))
                    <form method="post" action="/shop/store">\(fields)
                    <input type="hidden" name="storeId" value="\(store.id)">
                    \(current ? "<span class=\"status status-completed\">Your store</span>" : "<button type=\"submit\" class=\"secondary\" aria-label=\"Shop at \(store.name)\">Shop here</button>" as HTML)
                    </form></li>
                    """
            })
        return ShopPageView.page(
            "Choose a store", frame: frame,
            body: """
                <h1>Choose your store</h1>
                <p class="hint">Prices, stock and aisles are each store's own; you collect your order there.</p>
                <form method="get" action="/shop/stores" class="search" role="search" id="store-finder">
                <label for="town">Town or area</label>
                <input id="town" name="town" value="\(town)" maxlength="100" autocomplete="address-level2">
                <button type="submit" id="find-stores">Find stores</button>
                <button type="button" class="secondary" id="use-location" hidden>Use my location</button>
                </form>
                \(located ? "<p class=\"hint\" id=\"nearest-first\">Nearest first from where you are.</p>" : "" as HTML)
                <ul class="stores" id="stores">\(items)</ul>
                """)
    }

    /// "2.3 km away" (to the hundred metres under 10 km), "850 m away".
    static func distanceText(_ metres: Double) -> String {
        guard metres.isFinite else { return "" }
        if metres < 1_000 { return "\(Int((metres / 10).rounded()) * 10) m away" }
        if metres < 10_000 { return String(format: "%.1f km away", metres / 1_000) }
        return "\(Int((metres / 1_000).rounded())) km away"
    }

    /// The store's next seven days: "Fri 27 Nov 08:00–20:00", "Sun 29 Nov Closed (Christmas)".
    static func week(_ week: (TimeZone, [PickupSlots.OpeningDay])?) -> HTML {
        guard let (_, days) = week else { return .empty }
        let rows = HTML.join(
            days.map { day in
                let hours =
                    day.closedBecause.map { "Closed (\($0))" }
                    ?? (day.hours.isEmpty
                        ? "Closed" : day.hours.map { "\(StoreCalendar.clock($0.opens))–\(StoreCalendar.clock($0.closes))" }.joined(separator: ", "))
                return "<tr><th scope=\"row\">\(SlotChooserView.label(day.date))</th><td>\(hours)</td></tr>"
            })
        return "<table class=\"hours\"><caption>Opening hours this week</caption><tbody>\(rows)</tbody></table>"
    }
}
