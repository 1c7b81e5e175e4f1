import Foundation
import FulfilmentDomain

/// The catalogue import's pages (issue 46): the upload form, then the import itself: its preview
/// (counts, the new and changed rows, every refused row), Import and Cancel, a progress bar while
/// it runs (the page refreshes itself: no script), and a sentence when it ends.
enum CatalogueImportView {
    /// The most rows of each kind a table shows; the count says how many more there are.
    static let tableRows = CatalogueImportRecord.examplesPerKind

    static func upload(session: ConsoleSession, stores: [StoreRecord], chosen: StoreID?, notice: Notice?) -> ConsolePage {
        let admin = session.identity.role == .admin
        let options = stores.map { store -> HTML in
            "<option value=\"\(store.id)\"\(store.id == chosen ? " selected" as HTML : .empty)>\(store.name) (\(store.code))</option>"
        }
        let storeField: HTML =
            admin
            ? """
            <p class="field wide"><label for="import-store">Store</label>
            <select id="import-store" name="store" required>\(HTML.join(options))</select></p>
            """
            : .empty
        let columns = admin ? CatalogueImport.columns : CatalogueImport.storeColumns
        let explain: HTML =
            admin
            ? "The chain's file: products by SKU (new ones are added), with the chosen store's stock and places. Required: sku, name, price (minor units), on_hand."
            : "Your store's prices, places and stock, for products the catalogue has, by SKU. Only sku is required; a column you leave out stays as it is. Names, prices and barcodes are the chain's: its admin keeps them."
        return ConsolePage(
            title: "Import from CSV", session: session,
            body: """
                <h1>Import from CSV</h1>
                \(notice.map { $0.render(id: "import-note") } ?? .empty)
                <p>\(explain)</p>
                <p class="hint" id="import-columns">Columns (a header row, any order): \(columns.joined(separator: ", ")).</p>
                <form method="post" action="/console/catalogue/import" enctype="multipart/form-data" class="fields" id="import-form">\(ConsolePage.csrfInput(session))
                \(storeField)
                <p class="field wide"><label for="import-file">CSV file</label>
                <input id="import-file" name="file" type="file" accept=".csv,text/csv" required aria-describedby="import-file-hint">
                <span class="hint" id="import-file-hint">At most \(CatalogueImports.maximumBytes / (1024 * 1024)) MB, UTF-8. Nothing is written until you have seen what it changes and chosen Import.</span></p>
                <p><button type="submit" id="import-preview">Preview</button></p>
                </form>
                """)
    }

    static func page(session: ConsoleSession, record: CatalogueImportRecord, admin: Bool, notice: Notice?) -> ConsolePage {
        // Under way, or a cancel whose worker is still rolling back: the page watches it.
        let watching = record.status.isUnderWay || (record.status == .cancelled && record.finishedAt == nil)
        let storeInput: HTML = admin ? "<input type=\"hidden\" name=\"store\" value=\"\(record.store)\">" : .empty
        let csrf = ConsolePage.csrfInput(session)
        let cancel: HTML =
            record.canCancel
            ? """
            <form method="post" action="/console/catalogue/import/\(record.id)/cancel">\(csrf)\(storeInput)<button type="submit" id="import-cancel" class="secondary">Cancel</button></form>
            """
            : .empty
        let start: HTML =
            record.canStart
            ? """
            <form method="post" action="/console/catalogue/import/\(record.id)/start">\(csrf)\(storeInput)<button type="submit" id="import-start">Import</button></form>
            """
            : .empty
        let again: HTML =
            "<p><a href=\"/console/catalogue/import\(admin ? "?store=\(record.store)" : "")\" id=\"import-again\">Import another file</a></p>"
        var page = ConsolePage(
            title: "Import \(record.fileName.isEmpty ? "from CSV" : record.fileName)", session: session,
            body: """
                <h1>Import\(record.fileName.isEmpty ? "" : ": \(record.fileName)")</h1>
                \(notice.map { $0.render(id: "import-note") } ?? .empty)
                \(status(record))
                \(record.status.isUnderWay ? progress(record) : .empty)
                \(start.markup.isEmpty && cancel.markup.isEmpty ? HTML.empty : "<div class=\"actions\">\(start)\(cancel)</div>" as HTML)
                \(counts(record))
                \(refused(record))
                \(examples(record, kind: "new", title: "New products", count: record.new))
                \(examples(record, kind: "changed", title: "Changed", count: record.changed))
                \(watching ? .empty : again)
                """)
        if watching { page.refreshEvery = 2 }
        return page
    }

    /// One sentence on where the import is.
    static func status(_ record: CatalogueImportRecord) -> HTML {
        let sentence: String
        var ok = true
        switch record.status {
        case .previewed where !record.problems.isEmpty:
            ok = false
            sentence =
                "\(rows(record.problems.count)) refused, listed below with the reason: fix them in the file and upload it again. Nothing has been written."
        case .previewed:
            sentence = "Nothing has been written yet. Import writes every change below in one go; Cancel drops this file."
        case .queued:
            sentence = "Starting the import…"
        case .running:
            sentence = "Importing… You may cancel until it is written; then nothing of it is kept."
        case .cancelled where record.finishedAt == nil:
            sentence = "Cancelling: the import is being rolled back. Nothing will be written."
        case .cancelled:
            sentence = "Cancelled: nothing was written."
        case .committed:
            sentence =
                "Imported \(rows(record.new + record.changed + record.unchanged)): \(number(record.new)) new, \(number(record.changed)) changed, \(number(record.unchanged)) unchanged."
        case .failed:
            ok = false
            sentence = record.failure ?? "The import failed; nothing was written."
        }
        return "<p class=\"notice \(ok ? "notice-ok" : "notice-refused")\" id=\"import-status\" role=\"status\">\(sentence)</p>"
    }

    /// Rows checked and loaded, counted as the worker COPYs them; then one statement writes them
    /// all, which cannot count its rows: the bar turns indeterminate and says so, rather than
    /// sitting at 100% while the biggest step runs.
    static func progress(_ record: CatalogueImportRecord) -> HTML {
        if record.progressTotal > 0, record.progressDone >= record.progressTotal {
            return """
                <p><label for="import-progress">Writing to the catalogue</label><br>
                <progress id="import-progress"></progress>
                <span id="import-progress-words">All \(number(record.progressTotal)) rows checked and loaded; writing them in one go (this can take a minute for a big file)</span></p>
                """
        }
        let total = max(record.progressTotal, 1)
        let done = min(record.progressDone, total)
        return """
            <p><label for="import-progress">Rows checked and loaded</label><br>
            <progress id="import-progress" max="\(total)" value="\(done)">\(number(done)) of \(number(record.progressTotal))</progress>
            <span id="import-progress-words">\(number(record.progressDone)) of \(number(record.progressTotal)) rows</span></p>
            """
    }

    static func counts(_ record: CatalogueImportRecord) -> HTML {
        """
        <dl class="facts" id="import-counts">
        <dt>File</dt><dd>\(record.kind == .chain ? "The chain's catalogue, with this store's stock" : "The store's prices, places and stock")</dd>
        <dt>Rows</dt><dd id="count-rows">\(number(record.rows))</dd>
        <dt>New</dt><dd id="count-new">\(number(record.new))</dd>
        <dt>Changed</dt><dd id="count-changed">\(number(record.changed))</dd>
        <dt>Unchanged</dt><dd id="count-unchanged">\(number(record.unchanged))</dd>
        <dt>Refused</dt><dd id="count-refused">\(number(record.problems.count))</dd>
        </dl>
        """
    }

    /// The most refused rows the page lists (the API answers every one): a file refused on every
    /// one of its 100,000 rows is fixed from the first, not read to the end on a phone.
    static let refusedShown = 1_000

    /// Every refused row, with its line and reason (up to `refusedShown`).
    static func refused(_ record: CatalogueImportRecord) -> HTML {
        guard !record.problems.isEmpty else { return .empty }
        let rows = record.problems.prefix(refusedShown).map { problem -> HTML in
            "<tr><td data-label=\"Line\">\(problem.line)</td><td data-label=\"Reason\">\(problem.message)</td></tr>"
        }
        let more: HTML =
            record.problems.count > refusedShown
            ? "<p class=\"hint\">and \(number(record.problems.count - refusedShown)) more refused rows: fix these and upload the file again to see the rest.</p>"
            : .empty
        return """
            <h2>Refused rows</h2>
            <table class="cards compact" id="refused-rows"><caption>Rows refused, by line</caption>
            <thead><tr><th scope="col">Line</th><th scope="col">Reason</th></tr></thead>
            <tbody>\(HTML.join(rows))</tbody></table>
            \(more)
            """
    }

    static func examples(_ record: CatalogueImportRecord, kind: String, title: String, count: Int) -> HTML {
        let shown = record.examples.filter { $0.kind == kind }
        guard !shown.isEmpty else { return .empty }
        let rows = shown.map { row -> HTML in
            let fields: HTML = kind == "changed" ? "<td data-label=\"Changes\">\(row.fields.map(fieldName).joined(separator: ", "))</td>" : .empty
            return
                "<tr><td data-label=\"Line\">\(row.line)</td><td data-label=\"SKU\">\(row.sku)</td><td data-label=\"Name\">\(row.name)</td>\(fields)</tr>"
        }
        let more: HTML = count > shown.count ? "<p class=\"hint\">and \(number(count - shown.count)) more.</p>" : .empty
        return """
            <h2>\(title)</h2>
            <table class="cards compact" id="\(kind)-rows"><caption>\(title) (\(number(count)))</caption>
            <thead><tr><th scope="col">Line</th><th scope="col">SKU</th><th scope="col">Name</th>\(kind == "changed" ? "<th scope=\"col\">Changes</th>" as HTML : .empty)</tr></thead>
            <tbody>\(HTML.join(rows))</tbody></table>
            \(more)
            """
    }

    /// A changed field as a manager reads it.
    static func fieldName(_ field: String) -> String {
        switch field {
        case "store_price": "store price"
        case "on_hand": "on hand"
        case "min_supply": "minimum supply"
        case "minimum_age": "minimum age"
        case "place": "aisle, bay or shelf"
        case "stock": "now stocked here"
        default: field
        }
    }

    static func rows(_ count: Int) -> String { count == 1 ? "1 row" : "\(number(count)) rows" }

    /// A whole number with thousands separated by commas: 1,200.
    static func number(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return value < 0 ? "-" + out : out
    }
}
