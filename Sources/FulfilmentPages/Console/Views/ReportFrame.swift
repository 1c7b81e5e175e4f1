import Foundation
import FulfilmentDomain

/// What every report page shares (issue 46): the nav of the reports at its top, and the range as
/// a GET form (the chain's admin chooses a store first), so an address names a report and can be
/// shared.
enum ReportFrame {
    /// What a report page was asked for, kept in the form and the CSV links.
    struct Chosen {
        var store: StoreID?
        var from: String?
        var to: String?
    }

    /// The reports, as the nav names them: path and label.
    static let reports: [(path: String, label: String)] = [
        ("/console/reports/sales", "Sales"), ("/console/reports/on-time", "On time"), ("/console/reports/desk", "At the desk"),
        ("/console/reports/picking", "Picking"),
        ("/console/reports/products", "Products"), ("/console/reports/coupons", "Coupons"),
    ]

    /// The nav of the reports, this one marked as the current page; the other links keep the
    /// chosen store and range.
    static func nav(current path: String, _ chosen: Chosen, range: ReportRange?) -> HTML {
        var query: [String] = []
        if let store = chosen.store { query.append("store=\(store)") }
        if let from = range.map({ "\($0.from)" }) ?? chosen.from.flatMap({ ReportRange.day($0).map { "\($0)" } }) { query.append("from=\(from)") }
        if let to = range.map({ "\($0.to)" }) ?? chosen.to.flatMap({ ReportRange.day($0).map { "\($0)" } }) { query.append("to=\(to)") }
        let suffix = query.isEmpty ? "" : "?" + query.joined(separator: "&")
        let links = reports.map { report -> HTML in
            report.path == path
                ? "<li><a href=\"\(report.path)\(suffix)\" aria-current=\"page\">\(report.label)</a></li>"
                : "<li><a href=\"\(report.path)\(suffix)\">\(report.label)</a></li>"
        }
        return """
            <nav class="report-nav" aria-label="Reports" id="report-nav"><ul>\(HTML.join(links))</ul></nav>
            """
    }

    /// The range as a GET form to `action`: dates in the store's calendar; the admin's store.
    static func rangeForm(action: String, _ chosen: Chosen, range: ReportRange?, stores: [StoreRecord]) -> HTML {
        let options = stores.map { store -> HTML in
            "<option value=\"\(store.id)\"\(store.id == chosen.store ? " selected" as HTML : .empty)>\(store.name) (\(store.code))</option>"
        }
        let storeField: HTML =
            stores.isEmpty
            ? .empty
            : """
            <p><label for="report-store">Store</label><select id="report-store" name="store">\(HTML.join(options))</select></p>
            """
        return """
            <form method="get" action="\(action)" class="report-range" id="report-range">
            \(storeField)
            <p><label for="report-from">From</label><input id="report-from" name="from" type="date" min="2000-01-01" max="2100-12-31" value="\(range.map { "\($0.from)" } ?? chosen.from ?? "")"></p>
            <p><label for="report-to">To</label><input id="report-to" name="to" type="date" min="2000-01-01" max="2100-12-31" value="\(range.map { "\($0.to)" } ?? chosen.to ?? "")"></p>
            <p><button type="submit" id="show-report">Show</button></p>
            </form>
            """
    }

    /// The CSV links' query (escaped for the attribute by the caller's interpolation).
    static func csvQuery(store: StoreID, range: ReportRange) -> String {
        "store=\(store)&from=\(range.from)&to=\(range.to)"
    }

    /// `45%`: a share of 0 to 1 as a whole percentage; a dash without one.
    static func percent(_ share: Double?) -> String {
        share.map { "\(Int(($0 * 100).rounded()))%" } ?? "–"
    }

    /// `12.5 min`; a dash without a figure.
    static func minutes(_ value: Double?) -> String {
        value.map { "\(String(format: "%.1f", $0)) min" } ?? "–"
    }

    /// A field of a CSV file: quoted when it holds a comma, a quote or a line break (its quotes
    /// doubled), and text a spreadsheet would read as a formula (`=`, `+`, `-`, `@`, a tab or a
    /// carriage return first) led by an apostrophe, so a product's name is never run as one.
    static func csvField(_ text: String) -> String {
        let guarded = text.unicodeScalars.first.map { "=+-@\t\r".unicodeScalars.contains($0) } == true ? "'" + text : text
        guard guarded.unicodeScalars.contains(where: { ",\"\n\r".unicodeScalars.contains($0) }) else { return guarded }
        return "\"" + guarded.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
