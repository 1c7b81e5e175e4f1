import Foundation
import FulfilmentDomain

/// The chain's stores (`GET /console/stores`, where a chain admin lands after signing in), the
/// form that opens one, and a store's own page: its details and its aisles in walk order.
enum StoresView {
    static func page(
        session: ConsoleSession, csrf: HTML, notice: Notice?, stores: [(store: StoreRecord, aisles: [AisleRecord])], typed: ConsoleForm?
    ) -> ConsolePage {
        let rows = stores.map { store, aisles -> HTML in
            """
            <tr id="store-\(store.code)">
            <td data-label="Store"><a href="/console/stores/\(store.id)">\(store.name)</a></td>
            <td data-label="Code">\(store.code)</td>
            <td data-label="Address">\(store.address.isEmpty ? "–" : store.address)</td>
            <td data-label="Aisles">\(aisles.count)</td>
            <td data-label="Currency">\(store.currency)</td>
            </tr>
            """
        }
        let list: HTML =
            stores.isEmpty
            ? "<p class=\"hint\" id=\"no-stores\">No stores yet.</p>"
            : """
            <table class="cards" id="stores">
            <thead><tr><th scope="col">Store</th><th scope="col">Code</th><th scope="col">Address</th><th scope="col">Aisles</th><th scope="col">Currency</th></tr></thead>
            <tbody>\(HTML.join(rows))</tbody></table>
            """
        let value = { (name: String) in typed?[name] ?? "" }
        return ConsolePage(
            title: "Stores", session: session,
            body: """
                <h1>The chain's stores</h1>
                \(notice.map { $0.render(id: "stores-note") } ?? .empty)
                \(list)
                <h2>Open a store</h2>
                <form method="post" action="/console/stores" class="fields roomy" id="new-store">\(csrf)
                <p class="field wide"><label for="store-name">Name</label><input id="store-name" name="name" required maxlength="200" value="\(value("name"))"></p>
                <p class="field"><label for="store-code">Code (capitals, digits, hyphens)</label><input id="store-code" name="code" required maxlength="20" pattern="[A-Z0-9-]{2,20}" value="\(value("code"))" autocomplete="off"></p>
                <p class="field short"><label for="store-currency">Currency</label><input id="store-currency" name="currency" required maxlength="3" value="\(typed?["currency"] ?? "JMD")"></p>
                <p class="field wide"><label for="store-address">Address</label><input id="store-address" name="address" maxlength="500" value="\(value("address"))"></p>
                <p class="field"><label for="store-lat">Latitude</label><input id="store-lat" name="lat" inputmode="decimal" maxlength="20" value="\(value("lat"))"></p>
                <p class="field"><label for="store-lng">Longitude</label><input id="store-lng" name="lng" inputmode="decimal" maxlength="20" value="\(value("lng"))"></p>
                <p><button type="submit" id="open-store">Open it</button></p>
                </form>
                """)
    }

    /// The store's details as its form shows them.
    static func fields(_ store: StoreRecord) -> ConsoleForm {
        ConsoleForm(fields: [
            "name": store.name, "code": store.code, "address": store.address, "phone": store.phone, "taxNumber": store.taxNumber ?? "",
            "lat": store.location.map { "\($0.latitude)" } ?? "", "lng": store.location.map { "\($0.longitude)" } ?? "",
            "newArrivalDays": "\(store.newArrivalDays)", "reminderHours": "\(store.reminderHours)", "logoUrl": store.logoURL ?? "",
        ])
    }

    static func store(
        session: ConsoleSession, csrf: HTML, notice: Notice?, store: StoreRecord, aisles: [AisleRecord], fields: ConsoleForm, isAdmin: Bool
    ) -> ConsolePage {
        let base = "/console/stores/\(store.id)"
        let value = { (name: String) in fields[name] ?? "" }
        // The chain names its stores; a store's manager keeps the rest.
        let identity: HTML =
            isAdmin
            ? """
            <p class="field wide"><label for="store-name">Name</label><input id="store-name" name="name" required maxlength="200" value="\(value("name"))"></p>
            <p class="field"><label for="store-code">Code</label><input id="store-code" name="code" required maxlength="20" value="\(value("code"))" autocomplete="off"></p>
            """
            : .empty
        let zones = { (selected: String) in
            HTML.join(StoreRules.zones.map { "<option value=\"\($0)\"\($0 == selected ? " selected" : "")>\($0)</option>" as HTML })
        }
        let rows = aisles.map { aisle -> HTML in
            let controls: HTML =
                isAdmin
                ? """
                <form method="post" action="\(base)/aisles/\(aisle.id)" class="fields aisle-form">\(csrf)
                <p class="field short"><label for="walk-\(aisle.id)">Walk</label><input id="walk-\(aisle.id)" name="walkOrder" inputmode="numeric" maxlength="5" value="\(aisle.walkOrder)"></p>
                <p class="field short"><label for="code-\(aisle.id)">Aisle</label><input id="code-\(aisle.id)" name="code" maxlength="20" value="\(aisle.code)"></p>
                <p class="field"><label for="name-\(aisle.id)">Name</label><input id="name-\(aisle.id)" name="name" maxlength="100" value="\(aisle.name)"></p>
                <p class="field short"><label for="zone-\(aisle.id)">Zone</label><select id="zone-\(aisle.id)" name="zone">\(zones(aisle.zone))</select></p>
                <p><button type="submit" class="secondary" id="save-aisle-\(aisle.id)">Save</button></p>
                </form>
                <form method="post" action="\(base)/aisles/\(aisle.id)/delete" class="inline-form">\(csrf)<button type="submit" class="danger" id="remove-aisle-\(aisle.id)">Remove</button></form>
                """
                : "\(aisle.walkOrder). Aisle \(aisle.code), \(aisle.name) (\(aisle.zone))"
            return "<li id=\"aisle-\(aisle.code)\">\(controls)</li>"
        }
        let newAisle: HTML =
            isAdmin
            ? """
            <h3>Add an aisle</h3>
            <form method="post" action="\(base)/aisles" class="fields" id="new-aisle">\(csrf)
            <p class="field short"><label for="new-aisle-walk">Walk order</label><input id="new-aisle-walk" name="walkOrder" required inputmode="numeric" maxlength="5" value="\((aisles.map(\.walkOrder).max() ?? 0) + 1)"></p>
            <p class="field short"><label for="new-aisle-code">Aisle</label><input id="new-aisle-code" name="code" required maxlength="20"></p>
            <p class="field"><label for="new-aisle-name">Name</label><input id="new-aisle-name" name="name" required maxlength="100"></p>
            <p class="field short"><label for="new-aisle-zone">Zone</label><select id="new-aisle-zone" name="zone">\(zones("ambient"))</select></p>
            <p><button type="submit" id="add-aisle">Add</button></p>
            </form>
            """
            : "<p class=\"hint\">The chain's admin lays out the aisles.</p>"
        return ConsolePage(
            title: store.name, session: session,
            body: """
                \(isAdmin ? "<p><a href=\"/console/stores\">All stores</a></p>" as HTML : .empty)
                <h1>\(store.name) <small>\(store.code) · \(store.currency)</small></h1>
                \(notice.map { $0.render(id: "store-note") } ?? .empty)
                <h2>Details</h2>
                <form method="post" action="\(base)" class="fields roomy" id="store-form">\(csrf)
                \(identity)
                <p class="field wide"><label for="store-address">Address</label><input id="store-address" name="address" maxlength="500" value="\(value("address"))"></p>
                <p class="field"><label for="store-phone">Telephone</label><input id="store-phone" name="phone" type="tel" maxlength="40" value="\(value("phone"))"></p>
                <p class="field"><label for="store-tax-number">Tax registration number (printed on VAT/GCT receipts)</label><input id="store-tax-number" name="taxNumber" maxlength="40" value="\(value("taxNumber"))" autocomplete="off"></p>
                <p class="field"><label for="store-lat">Latitude (the store finder's map)</label><input id="store-lat" name="lat" inputmode="decimal" maxlength="20" value="\(value("lat"))"></p>
                <p class="field"><label for="store-lng">Longitude</label><input id="store-lng" name="lng" inputmode="decimal" maxlength="20" value="\(value("lng"))"></p>
                <p class="field"><label for="store-new-days">A product is new for (days)</label><input id="store-new-days" name="newArrivalDays" inputmode="numeric" maxlength="3" value="\(value("newArrivalDays"))"></p>
                <p class="field"><label for="store-reminder">Remind an uncollected order's customer (hours before it expires; 0: never)</label><input id="store-reminder" name="reminderHours" inputmode="numeric" maxlength="3" value="\(value("reminderHours"))"></p>
                <p class="field wide"><label for="store-logo">Logo heading its emails (https://…)</label><input id="store-logo" name="logoUrl" type="url" maxlength="2000" value="\(value("logoUrl"))"></p>
                <p><button type="submit" id="save-store">Save</button></p>
                </form>
                <h2>Aisles, in the order a picker walks them</h2>
                \(aisles.isEmpty ? "<p class=\"hint\" id=\"no-aisles\">No aisles yet.</p>" as HTML : "<ol class=\"aisles\" id=\"aisles\">\(HTML.join(rows))</ol>")
                \(newAisle)
                """)
    }
}
