import Foundation
import FulfilmentDomain

/// The store settings page (issue 46): the pickup calendar as one form, then the rota (issue 47,
/// `SettingsView+Rota.swift`) for a manager. Each weekday has two
/// opening ranges (morning and afternoon, for a store that closes at lunch); an empty pair is
/// no range. Closures are one a line, `2026-12-25 Christmas Day`.
enum SettingsView {
    static let dayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    /// The most a closures box may hold: 400 closures of a date and a 200-character reason.
    static let closuresLimit = 400 * 212

    /// The form's fields as the stored calendar fills them (defaults for a store without one).
    static func fields(_ calendar: StoreCalendar?) -> ConsoleForm {
        var fields: [String: String] = [
            "timeZone": calendar?.timeZone.identifier ?? "UTC", "slotMinutes": "\(calendar?.slotMinutes ?? 30)",
            "capacity": "\(calendar?.capacity ?? 10)", "leadMinutes": "\(calendar?.leadMinutes ?? 120)",
            "horizonDays": "\(calendar?.horizonDays ?? 7)", "graceMinutes": "\(calendar?.graceMinutes ?? 1440)",
            "readyLeadMinutes": "\(calendar?.readyLeadMinutes ?? 15)",
        ]
        for weekday in 1...7 {
            let ranges = (calendar?.hours ?? []).filter { $0.weekday == weekday }.sorted { $0.opens < $1.opens }
            for (part, range) in zip(["a", "b"], ranges) {
                fields["w\(weekday)\(part)-opens"] = time(range.opens)
                fields["w\(weekday)\(part)-closes"] = time(range.closes)
            }
        }
        fields["closures"] = (calendar?.closures ?? []).sorted { $0.date < $1.date }
            .map { "\($0.date) \($0.reason)".trimmingCharacters(in: .whitespaces) }.joined(separator: "\n")
        return ConsoleForm(fields: fields)
    }

    /// What the form says, as the API's draft; `StoreCalendar.validated` checks the rest.
    static func draft(from form: ConsoleForm) throws -> CalendarDraft {
        var ranges: [CalendarDraft.Range] = []
        for weekday in 1...7 {
            for part in ["a", "b"] {
                let opens = form.text("w\(weekday)\(part)-opens")
                let closes = form.text("w\(weekday)\(part)-closes")
                switch (opens, closes) {
                case (nil, nil): continue
                case (let opens?, let closes?):
                    ranges.append(.init(weekday: StoreCalendar.weekdays[weekday - 1], opens: opens, closes: closes))
                default:
                    throw APIError.invalidField(
                        "openingHours", "\(dayNames[weekday - 1]): give both the opening and the closing time, or neither.")
                }
            }
        }
        let text = form["closures"] ?? ""
        guard text.utf8.count <= closuresLimit else { throw APIError.invalidField("closures", "At most 400 closures.") }
        let closures = text.split(whereSeparator: \.isNewline).compactMap { line -> CalendarDraft.Closure? in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else { return nil }
            let parts = trimmed.split(separator: " ", maxSplits: 1)
            let reason = parts.count > 1 ? String(parts[1]).trimmingCharacters(in: .whitespaces) : ""
            return CalendarDraft.Closure(date: String(parts[0]), reason: reason.isEmpty ? nil : reason)
        }
        return CalendarDraft(
            timeZone: form.text("timeZone") ?? "", openingHours: ranges, closures: closures,
            slotMinutes: try form.int("slotMinutes", label: "A slot's length", in: StoreCalendar.Bounds.slotMinutes),
            capacity: try form.int("capacity", label: "The capacity", in: StoreCalendar.Bounds.capacity) ?? 0,
            leadMinutes: try form.int("leadMinutes", label: "The lead time", in: StoreCalendar.Bounds.leadMinutes),
            horizonDays: try form.int("horizonDays", label: "How far ahead", in: StoreCalendar.Bounds.horizonDays),
            graceMinutes: try form.int("graceMinutes", label: "The wait for an uncollected order", in: StoreCalendar.Bounds.graceMinutes),
            readyLeadMinutes: try form.int("readyLeadMinutes", label: "Ready before the slot", in: StoreCalendar.Bounds.readyLeadMinutes))
    }

    static func page(
        session: ConsoleSession, csrf: HTML, notice: Notice?, calendar: StoreCalendar?, fields: ConsoleForm, policy: SubstitutionPolicy,
        canEdit: Bool, rota: RotaView? = nil, rotaFields: ConsoleForm? = nil
    ) -> ConsolePage {
        let value = { (name: String) in fields[name] ?? "" }
        let days = (1...7).map { weekday -> HTML in
            let name = dayNames[weekday - 1]
            let parts = ["a", "b"].map { part -> HTML in
                let label = part == "a" ? "" : " (second range)"
                return """
                    <span class="range"><label for="w\(weekday)\(part)-opens" class="visually-hidden">\(name) opens\(label)</label>\
                    <input type="time" id="w\(weekday)\(part)-opens" name="w\(weekday)\(part)-opens" value="\(value("w\(weekday)\(part)-opens"))"> to \
                    <label for="w\(weekday)\(part)-closes" class="visually-hidden">\(name) closes\(label)</label>\
                    <input type="time" id="w\(weekday)\(part)-closes" name="w\(weekday)\(part)-closes" value="\(value("w\(weekday)\(part)-closes"))"></span>
                    """
            }
            return "<tr id=\"hours-\(weekday)\"><th scope=\"row\">\(name)</th><td>\(HTML.join(parts, separator: " "))</td></tr>"
        }
        let none: HTML =
            calendar == nil
            ? "<p class=\"notice\" id=\"no-calendar\">This store has no pickup calendar yet: its orders take no slot. Saving the form gives it one.</p>"
            : .empty
        let number = { (name: String, label: String, hint: String, bounds: ClosedRange<Int>) -> HTML in
            """
            <p class="field short"><label for="\(name)">\(label)</label>
            <input type="number" id="\(name)" name="\(name)" min="\(bounds.lowerBound)" max="\(bounds.upperBound)" value="\(value(name))" required aria-describedby="\(name)-hint">
            <span class="hint" id="\(name)-hint">\(hint)</span></p>
            """
        }
        let button: HTML =
            canEdit
            ? "<p><button type=\"submit\" id=\"save-calendar\">Save the calendar</button></p>" : "<p class=\"hint\">A manager changes these.</p>"
        return ConsolePage(
            title: "Store settings", session: session,
            body: """
                <h1>Store settings</h1>
                \(notice.map { $0.render(id: "settings-note") } ?? .empty)
                \(session.identity.storeID.map { "<p><a href=\"/console/stores/\($0)\" id=\"store-details-link\">The store's details</a>: address, telephone, location, reminders, logo.</p>" as HTML } ?? .empty)
                \(none)
                <form method="post" action="/console/settings/calendar" class="fields roomy" id="calendar-form">\(csrf)
                <h2>Pickup calendar</h2>
                <p class="field wide"><label for="timeZone">Time zone</label>
                <input id="timeZone" name="timeZone" value="\(value("timeZone"))" required maxlength="64" aria-describedby="timeZone-hint" autocomplete="off">
                <span class="hint" id="timeZone-hint">As America/Jamaica or Europe/London: every time the store's people and customers read is on this clock.</span></p>
                \(number("slotMinutes", "Slot length (minutes)", "5 to 240.", StoreCalendar.Bounds.slotMinutes))
                \(number("capacity", "Orders a slot", "1 to 1000.", StoreCalendar.Bounds.capacity))
                \(number("leadMinutes", "Lead time (minutes)", "The earliest slot starts this long after an order.", StoreCalendar.Bounds.leadMinutes))
                \(number("horizonDays", "Book ahead (days)", "1 to 60.", StoreCalendar.Bounds.horizonDays))
                \(number("graceMinutes", "Uncollected orders wait (minutes)", "After the slot ends; then they are cancelled and any payment owed back. 1440 is a day.", StoreCalendar.Bounds.graceMinutes))
                \(number("readyLeadMinutes", "Ready before the slot (minutes)", "An order is packed this long before its slot starts; the order board shows it at risk or late against that time. 0 to 240.", StoreCalendar.Bounds.readyLeadMinutes))
                <h3>Opening hours</h3>
                <p class="hint">Two ranges a day for a store that closes at lunch; leave both empty on a closed day. A range that closes after midnight runs into the next day.</p>
                <table id="opening-hours"><tbody>\(HTML.join(days))</tbody></table>
                <p class="field wide"><label for="closures">Closures, one a line</label>
                <textarea id="closures" name="closures" rows="4" aria-describedby="closures-hint">\(value("closures"))</textarea>
                <span class="hint" id="closures-hint">A date and why: 2026-12-25 Christmas Day.</span></p>
                \(button)
                </form>
                \(rotaForm(rota, fields: rotaFields ?? SettingsView.rotaFields(rota), csrf: csrf))
                \(policyForm(policy, csrf: csrf, canEdit: canEdit))
                """)
    }

    /// What a line that says nothing accepts when the shelf is short, and how a substitute is priced.
    static func policyForm(_ policy: SubstitutionPolicy, csrf: HTML, canEdit: Bool) -> HTML {
        let preferences = [SubstitutionPreference.Kind.none, .bestMatch].map { kind -> HTML in
            """
            <label class="choice"><input type="radio" name="defaultPreference" value="\(kind.rawValue)" id="default-\(kind.rawValue)"\(kind == policy.defaultPreference ? " checked" as HTML : .empty)> \(words(kind).capitalizedFirst)</label>
            """
        }
        let rules = SubstitutionPriceRule.allCases.map { rule -> HTML in
            """
            <label class="choice"><input type="radio" name="priceRule" value="\(rule.rawValue)" id="rule-\(rule.rawValue)"\(rule == policy.priceRule ? " checked" as HTML : .empty)> \(words(rule).capitalizedFirst)</label>
            """
        }
        return """
            <form method="post" action="/console/settings/substitutions" class="fields" id="substitution-form">\(csrf)
            <h2>Substitutions</h2>
            <fieldset><legend>When the shelf is short and the customer said nothing</legend>\(HTML.join(preferences))</fieldset>
            <fieldset><legend>A substitute costs</legend>\(HTML.join(rules))</fieldset>
            \(canEdit ? "<p><button type=\"submit\" id=\"save-substitutions\">Save the substitution policy</button></p>" as HTML : .empty)
            </form>
            """
    }

    static func words(_ kind: SubstitutionPreference.Kind) -> String {
        switch kind {
        case .none: "no substitute: refund what is short"
        case .bestMatch: "the picker chooses the closest match"
        case .specific: "only the products the customer named"
        }
    }

    static func words(_ rule: SubstitutionPriceRule) -> String {
        switch rule {
        case .cap: "a substitute costs no more than what it replaces"
        case .substitutePrice: "a substitute costs its own price (a paid order is still capped)"
        }
    }

    /// Minutes after midnight as `HH:MM`.
    static func time(_ minutes: Int) -> String { String(format: "%02d:%02d", minutes / 60 % 24, minutes % 60) }
}

extension String {
    /// The sentence's first letter in capitals: "The picker chooses...".
    fileprivate var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
