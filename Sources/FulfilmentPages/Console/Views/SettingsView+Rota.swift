import Foundation
import FulfilmentDomain

/// The rota form of the store settings page (issue 47): the pickers of every hour, and the hours
/// that differ, one a line (`saturday 10-14 3`: Saturday 10:00 to 14:00, three pickers), so the
/// whole week fits a phone's width and works without script. Under it, what one order's picking
/// is estimated to take, and where that estimate comes from.
extension SettingsView {
    static let rotaLinesLimit = 168 * 24

    /// The rota's lines as the form shows them: runs of hours of a day with the same pickers.
    static func rotaLines(_ rota: StoreRota) -> String {
        var lines: [String] = []
        for weekday in 1...7 {
            let hours = rota.hours.filter { $0.weekday == weekday }.sorted { $0.hour < $1.hour }
            var index = 0
            while index < hours.count {
                var end = index
                while end + 1 < hours.count, hours[end + 1].hour == hours[end].hour + 1, hours[end + 1].pickers == hours[index].pickers {
                    end += 1
                }
                let from = hours[index].hour
                let to = hours[end].hour + 1
                lines.append("\(StoreCalendar.weekdays[weekday - 1]) \(to - from == 1 ? "\(from)" : "\(from)-\(to)") \(hours[index].pickers)")
                index = end + 1
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The form's fields as the stored (or default) rota fills them.
    static func rotaFields(_ view: RotaView?) -> ConsoleForm {
        let rota = view?.rota ?? StoreRota(defaultPickers: StoreRota.defaultPickerCount, hours: [])
        return ConsoleForm(fields: ["defaultPickers": "\(rota.defaultPickers)", "rotaHours": rotaLines(rota)])
    }

    /// What the form says, as the API's draft (`StoreRota.validated` checks the rest): every
    /// number read by the one bounded reader before anything counts with it.
    static func rotaDraft(from form: ConsoleForm) throws -> StoreRota.Draft {
        let pickers = try form.int("defaultPickers", label: "Pickers every other hour", in: StoreRota.pickers)
        let text = form["rotaHours"] ?? ""
        guard text.utf8.count <= rotaLinesLimit else { throw APIError.invalidField("rotaHours", "At most 168 lines.") }
        var hours: [(weekday: String, hour: Int, pickers: Int)] = []
        for (number, line) in text.split(whereSeparator: \.isNewline).enumerated() {
            let words = line.split(whereSeparator: \.isWhitespace)
            guard !words.isEmpty else { continue }
            let refusal = APIError.invalidField(
                "rotaHours", "Line \(number + 1): write a day, the hours and the pickers, as saturday 10-14 3.")
            guard words.count == 3 else { throw refusal }
            let name = words[0].lowercased()
            guard let weekday = StoreCalendar.weekdays.first(where: { name.count >= 3 && $0.hasPrefix(name) }) else { throw refusal }
            let span = words[1].split(separator: "-", omittingEmptySubsequences: false)
            guard span.count == 1 || span.count == 2,
                let from = try ClientNumber.read(String(span[0]), field: "rotaHours", label: "An hour", in: 0...23)
            else { throw refusal }
            let end = span.count == 2 ? try ClientNumber.read(String(span[1]), field: "rotaHours", label: "An hour", in: 1...24) : from + 1
            guard let to = end, to > from,
                let count = try ClientNumber.read(String(words[2]), field: "rotaHours", label: "Pickers", in: StoreRota.pickers)
            else { throw refusal }
            guard hours.count + (to - from) <= 168 else { throw APIError.invalidField("rotaHours", "A week has 168 hours.") }
            hours += (from..<to).map { (weekday, $0, count) }
        }
        return StoreRota.Draft(defaultPickers: pickers, hours: hours)
    }

    /// The rota form, for the store's manager; nil `view`: the caller may not read it (staff).
    static func rotaForm(_ view: RotaView?, fields: ConsoleForm, csrf: HTML) -> HTML {
        guard let view else { return .empty }
        let estimate = view.estimate
        let learned: HTML =
            estimate.batches == 0
            ? "the defaults: too few pick lists were recorded in the last four weeks to learn the store's own."
            : "learned from \(estimate.batches) pick lists of the last four weeks."
        let unset: HTML =
            view.isSet
            ? .empty
            : "<p class=\"notice\" id=\"no-rota\">No rota yet: slots count orders only. Saving the form limits each slot to the picking its pickers can do.</p>"
        return """
            <form method="post" action="/console/settings/rota" class="fields roomy" id="rota-form">\(csrf)
            <h2>Pickers (rota)</h2>
            \(unset)
            <p class="hint">A slot takes an order only while the picking booked into it fits its pickers' time (\(view.utilisationPercent) % of it: the rest is hand-overs, restocking and breaks).</p>
            <p class="field short"><label for="defaultPickers">Pickers every other hour</label>
            <input type="number" id="defaultPickers" name="defaultPickers" min="\(StoreRota.pickers.lowerBound)" max="\(StoreRota.pickers.upperBound)" value="\(fields["defaultPickers"] ?? "")" required aria-describedby="defaultPickers-hint">
            <span class="hint" id="defaultPickers-hint">0 to 50.</span></p>
            <p class="field wide"><label for="rotaHours">Hours with their own pickers, one a line</label>
            <textarea id="rotaHours" name="rotaHours" rows="5" aria-describedby="rotaHours-hint">\(fields["rotaHours"] ?? "")</textarea>
            <span class="hint" id="rotaHours-hint">A day, the hours on the store's clock and the pickers: saturday 10-14 3 is three pickers from 10:00 to 14:00.</span></p>
            <p id="pick-estimate">One order takes \(estimate.perOrderSeconds) s, plus \(estimate.perLineSeconds) s a line and \(estimate.perUnitSeconds) s for each further unit: \(learned)</p>
            <p><button type="submit" id="save-rota">Save the rota</button></p>
            </form>
            """
    }
}
