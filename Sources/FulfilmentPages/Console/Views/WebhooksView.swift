import Foundation
import FulfilmentDomain

/// The webhook pages (issue 46): the endpoints a manager (their store's) or the chain's admin
/// (every one) keeps, the form that adds one, and an endpoint's page: its fields, enabling it
/// again after the dispatcher gave up, a test message, a new secret, and its deliveries with
/// how each went and a way to send one again.
enum WebhooksView {
    static func status(_ endpoint: WebhookEndpoint) -> HTML {
        if endpoint.enabled {
            if let since = endpoint.failingSince {
                return "<span class=\"status status-packaged\">Failing</span> since \(TimeText.format(since))"
            }
            return "<span class=\"status status-completed\">Sending</span>"
        }
        return "<span class=\"status status-cancelled\">Disabled</span>\(endpoint.disabledReason.map { ": \($0)" } ?? " by a person")"
    }

    static func scope(_ endpoint: WebhookEndpoint, stores: [StoreRecord]) -> String {
        guard let store = endpoint.store else { return "Every store" }
        return stores.first { $0.id == store }.map { "\($0.name) (\($0.code))" } ?? "A store"
    }

    static func list(
        session: ConsoleSession, csrf: HTML, notice: Notice?, endpoints: [WebhookEndpoint], stores: [StoreRecord], isAdmin: Bool,
        typed: ConsoleForm?
    ) -> ConsolePage {
        let rows = endpoints.map { endpoint -> HTML in
            """
            <tr id="webhook-\(endpoint.id)">
            <td data-label="Address" class="address"><a href="/console/webhooks/\(endpoint.id)">\(endpoint.url)</a></td>
            <td data-label="About">\(endpoint.description.isEmpty ? "–" : endpoint.description)</td>
            \(isAdmin ? "<td data-label=\"Store\">\(scope(endpoint, stores: stores))</td>" as HTML : .empty)
            <td data-label="Events">\(endpoint.eventTypes.isEmpty ? "Every event" : endpoint.eventTypes.joined(separator: ", "))</td>
            <td data-label="Status">\(status(endpoint))</td>
            </tr>
            """
        }
        let storeChoice: HTML =
            isAdmin
            ? """
            <p class="field"><label for="webhook-store">Events of</label><select id="webhook-store" name="storeId">\
            <option value="">Every store</option>\(HTML.join(stores.map { "<option value=\"\($0.id)\"\(typed?["storeId"] == $0.id.description ? " selected" : "")>\($0.name) (\($0.code))</option>" as HTML }))</select></p>
            """
            : .empty
        let table: HTML =
            endpoints.isEmpty
            ? "<p id=\"no-webhooks\">No endpoint yet: events go nowhere but the live streams.</p>"
            : """
            <table class="cards" id="webhooks">
            <thead><tr><th scope="col">Address</th><th scope="col">About</th>\(isAdmin ? "<th scope=\"col\">Store</th>" as HTML : .empty)<th scope="col">Events</th><th scope="col">Status</th></tr></thead>
            <tbody>\(HTML.join(rows))</tbody></table>
            """
        return ConsolePage(
            title: "Webhooks", session: session,
            body: """
                <h1>Webhooks</h1>
                <p class="hint">Partners' systems told of each event as it happens: a signed POST (Standard Webhooks) to an address of theirs.</p>
                \(notice.map { $0.render(id: "webhooks-note") } ?? .empty)
                \(table)
                <h2>Send events to a new address</h2>
                <form method="post" action="/console/webhooks" class="fields roomy" id="new-webhook">\(csrf)
                <p class="field wide"><label for="webhook-url">Address (https://…)</label><input id="webhook-url" name="url" type="url" required maxlength="2000" value="\(typed?["url"] ?? "")" autocomplete="off"></p>
                <p class="field wide"><label for="webhook-description">What it is for</label><input id="webhook-description" name="description" maxlength="500" value="\(typed?["description"] ?? "")"></p>
                \(storeChoice)
                \(eventChoice(selected: typed.map(selectedTypes) ?? []))
                <p><button type="submit" id="add-webhook">Add</button></p>
                </form>
                """)
    }

    /// The event types a form ticked, in the contract's order.
    static func selectedTypes(_ form: ConsoleForm) -> [String] {
        WebhookRules.eventTypes.filter { form["type-\($0)"] == "on" }
    }

    private static func eventChoice(selected: [String]) -> HTML {
        let boxes = WebhookRules.eventTypes.map { type -> HTML in
            let id = "type-\(type.replacingOccurrences(of: ".", with: "-"))"
            return
                "<label class=\"check\"><input type=\"checkbox\" id=\"\(id)\" name=\"type-\(type)\"\(selected.contains(type) ? " checked" : "")> \(type)</label>"
        }
        return """
            <fieldset class="choices"><legend>Events (none ticked: every event)</legend>\(HTML.join(boxes))</fieldset>
            """
    }

    static func endpoint(
        session: ConsoleSession, csrf: HTML, notice: Notice?, endpoint: WebhookEndpoint, stores: [StoreRecord],
        deliveries: [WebhookDelivery], secret: String?, typed: ConsoleForm?
    ) -> ConsolePage {
        let base = "/console/webhooks/\(endpoint.id)"
        let secretBox: HTML =
            secret.map {
                """
                <section class="notice notice-ok" id="secret-box" role="status">
                <h2>The signing secret</h2>
                <p>Copy it now into the receiving system: it is shown this once and never again.</p>
                <p><code id="webhook-secret" class="address">\($0)</code></p>
                </section>
                """
            } ?? .empty
        let toggle: HTML =
            endpoint.enabled
            ? """
            <form method="post" action="\(base)/disable" class="inline-form">\(csrf)<button type="submit" class="secondary" id="disable-webhook">Stop sending</button></form>
            """
            : """
            <form method="post" action="\(base)/enable" class="inline-form">\(csrf)<button type="submit" id="enable-webhook">Send again (and the deliveries waiting)</button></form>
            """
        let rows = deliveries.map { delivery -> HTML in
            let outcome: HTML
            switch delivery.status {
            case .succeeded: outcome = "<span class=\"status status-completed\">Delivered</span>"
            case .failed: outcome = "<span class=\"status status-cancelled\">Failed</span>"
            case .pending:
                outcome =
                    "<span class=\"status status-pending\">Waiting</span>\(delivery.nextAttemptAt.map { ", next try \(TimeText.format($0))" } ?? "")"
            }
            let answer: HTML =
                "\(delivery.lastResponseCode.map { "HTTP \($0)" } ?? "")\(delivery.lastError.map { " \(String($0.prefix(200)))" } ?? "")"
            let again: HTML =
                delivery.status == .pending || !endpoint.enabled
                ? .empty
                : """
                <form method="post" action="\(base)/deliveries/\(delivery.id)/redeliver" class="inline-form">\(csrf)<button type="submit" class="secondary" id="redeliver-\(delivery.id)">Send again</button></form>
                """
            return """
                <tr id="delivery-\(delivery.id)">
                <td data-label="Event">\(delivery.eventType)</td>
                <td data-label="Made">\(TimeText.format(delivery.createdAt))</td>
                <td data-label="Outcome">\(outcome)</td>
                <td data-label="Tries">\(delivery.attempts)</td>
                <td data-label="Last answer" class="address">\(answer)</td>
                <td data-label="Actions" class="board-actions">\(again)</td>
                </tr>
                """
        }
        let history: HTML =
            deliveries.isEmpty
            ? "<p id=\"no-deliveries\">Nothing sent yet.</p>"
            : """
            <table class="cards" id="deliveries">
            <thead><tr><th scope="col">Event</th><th scope="col">Made</th><th scope="col">Outcome</th><th scope="col">Tries</th><th scope="col">Last answer</th><th scope="col">Actions</th></tr></thead>
            <tbody>\(HTML.join(rows))</tbody></table>
            """
        let value = { (name: String, stored: String) in typed?[name] ?? stored }
        return ConsolePage(
            title: "Webhook", session: session,
            body: """
                <p><a href="/console/webhooks">All webhooks</a></p>
                <h1>Webhook</h1>
                <p class="address" id="webhook-address">\(endpoint.url)</p>
                <p id="webhook-status">\(status(endpoint)) · \(scope(endpoint, stores: stores))</p>
                \(notice.map { $0.render(id: "webhook-note") } ?? .empty)
                \(secretBox)
                <div class="actions">\(toggle)
                <form method="post" action="\(base)/test" class="inline-form">\(csrf)<button type="submit" class="secondary" id="test-webhook">Send a test</button></form></div>
                <h2>Deliveries</h2>
                \(history)
                <h2>Change it</h2>
                <form method="post" action="\(base)" class="fields roomy" id="webhook-form">\(csrf)
                <p class="field wide"><label for="webhook-url">Address</label><input id="webhook-url" name="url" type="url" required maxlength="2000" value="\(value("url", endpoint.url))" autocomplete="off"></p>
                <p class="field wide"><label for="webhook-description">What it is for</label><input id="webhook-description" name="description" maxlength="500" value="\(value("description", endpoint.description))"></p>
                \(eventChoice(selected: typed.map(selectedTypes) ?? endpoint.eventTypes))
                <p><button type="submit" id="save-webhook">Save</button></p>
                </form>
                <h2>The secret</h2>
                <form method="post" action="\(base)/secret" class="inline-form">\(csrf)
                <label><input type="checkbox" name="confirm" value="yes" id="confirm-rotate"> The receiving system will be given the new secret</label>
                <button type="submit" class="secondary" id="rotate-secret">Make a new secret</button></form>
                <h2>Remove it</h2>
                <form method="post" action="\(base)/delete" class="inline-form">\(csrf)
                <label><input type="checkbox" name="confirm" value="yes" id="confirm-delete"> Remove it and its deliveries for good</label>
                <button type="submit" class="danger" id="delete-webhook">Remove</button></form>
                """)
    }
}
