extension PickRoute {
    /// The sheet as a self-contained, print-ready HTML document (A4).
    ///
    /// One heading per zone and per aisle, a checkbox per stop, the tote legend, and the
    /// header's store, pick list and date. Every stop is `break-inside: avoid` and headings stay
    /// with the stop after them, so a page break never splits a stop. All caller text is escaped.
    public func htmlSheet(header: PickSheetHeader) -> String {
        let e = HTMLEscaping.escape
        let stopCount = sections.reduce(unlocated.count) { $0 + $1.stops.count }
        var html = ""
        html.reserveCapacity(4096 + stopCount * 600)
        html += """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Pick list \(e(header.pickListID)) — \(e(header.storeName))</title>
            <style>\(Self.printCSS)</style>
            </head>
            <body>
            <header class="sheet-header">
            <h1>Pick list <span class="store">\(e(header.storeName))</span></h1>
            <p class="meta">Pick list <strong class="pick-list-id">\(e(header.pickListID))</strong> · \
            <time datetime="\(e(header.createdMachineText))">\(e(header.createdText))</time> · \
            \(Self.counted(totes.count, "order")) · \(Self.counted(stopCount, "stop")) · \
            \(Self.counted(itemCount, "item"))</p>

            """
        if !totes.isEmpty {
            html += "<section class=\"totes\" aria-label=\"Totes\"><h2>Totes</h2><ul>\n"
            for tote in totes {
                let slot = header.slots[tote.orderID].map { " <span class=\"slot\">\(e($0))</span>" } ?? ""
                html += "<li><span class=\"tote\">\(e(tote.label))</span> #\(e(tote.orderNumber))\(slot)</li>\n"
            }
            html += "</ul></section>\n"
        }
        html += "</header>\n<main>\n"

        var index = 0
        while index < sections.count {
            let zone = sections[index].zone
            html += "<section class=\"zone zone-\(zone.rawValue)\">\n<h2>\(zone.heading)</h2>\n"
            while index < sections.count, sections[index].zone == zone {
                let section = sections[index]
                html += """
                    <section class="aisle">
                    <h3>Aisle \(e(section.aisle.code)) · \(e(section.aisle.name)) \
                    <span class="direction">bays \(section.bayDirection.rawValue)</span></h3>
                    <ol class="stops">

                    """
                for stop in section.stops { Self.appendStop(stop, to: &html) }
                html += "</ol>\n</section>\n"
                index += 1
            }
            html += "</section>\n"
        }
        if !unlocated.isEmpty {
            html += """
                <section class="zone unlocated">
                <h2>Unlocated <span class="direction">not on the store map: find and report</span></h2>
                <ol class="stops">

                """
            for stop in unlocated { Self.appendStop(stop, to: &html) }
            html += "</ol>\n</section>\n"
        }
        if stopCount == 0 { html += "<p class=\"empty\">Nothing to pick.</p>\n" }
        html += "</main>\n</body>\n</html>\n"
        return html
    }

    private static func appendStop(_ stop: PickStop, to html: inout String) {
        let e = HTMLEscaping.escape
        html += """
            <li class="stop" value="\(stop.sequence)"><span class="checkbox" role="checkbox" aria-checked="false" \
            aria-label="Picked"></span><div class="body"><div class="what"><span class="seq">\(stop.sequence).</span> \
            <span class="name">\(e(stop.productName))</span> <span class="qty">×\(stop.quantity)</span></div>
            """
        html += "<div class=\"split\">"
        for (index, allocation) in stop.allocations.enumerated() {
            if index > 0 { html += ", " }
            html += """
                <span class="alloc">#\(e(allocation.tote.orderNumber)) ×\(allocation.quantity) \
                (tote <span class="tote">\(e(allocation.tote.label))</span>)\
                \(allocation.substitution.map { " <span class=\"sub\">\(e($0))</span>" } ?? "")</span>
                """
        }
        html += "</div><div class=\"where\">"
        if let location = stop.location {
            html += "Bay \(location.bay) · Shelf \(e(location.shelf)) · "
        }
        html += "SKU \(e(stop.sku))</div></div></li>\n"
    }

    /// A4 pages; stops never split across pages and headings never end a page.
    static let printCSS = """

        @page { size: A4 portrait; margin: 12mm 12mm 14mm 12mm; }
        * { box-sizing: border-box; }
        html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
        body { margin: 0; color: #000; font: 10.5pt/1.35 "DejaVu Sans", "Liberation Sans", Arial, sans-serif; }
        h1 { font-size: 16pt; margin: 0 0 1mm; }
        h1 .store { font-weight: normal; }
        .meta { margin: 0 0 2mm; }
        .sheet-header { border-bottom: 2px solid #000; padding-bottom: 2mm; margin-bottom: 3mm; }
        .totes h2 { font-size: 10.5pt; margin: 0 0 1mm; }
        .totes ul { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 1mm 5mm; }
        .totes li { break-inside: avoid; page-break-inside: avoid; }
        .tote { display: inline-block; min-width: 6mm; padding: 0 1mm; border: 1.5px solid #000;
          border-radius: 1mm; font-weight: bold; text-align: center; }
        .zone > h2 { font-size: 13pt; text-transform: uppercase; letter-spacing: .05em; background: #e8e8e8;
          padding: 1mm 2mm; margin: 4mm 0 1mm; break-after: avoid; page-break-after: avoid; }
        .aisle > h3 { font-size: 12pt; margin: 3mm 0 1mm; padding-bottom: .5mm; border-bottom: 1px solid #000;
          break-after: avoid; page-break-after: avoid; }
        .direction { font-size: 9pt; font-weight: normal; text-transform: none; letter-spacing: 0; }
        .stops { list-style: none; margin: 0; padding: 0; }
        .stop { display: flex; gap: 3mm; padding: 1.5mm 0; border-bottom: .5px solid #999;
          break-inside: avoid; page-break-inside: avoid; }
        .checkbox { flex: none; width: 5mm; height: 5mm; margin-top: .5mm; border: 1.5px solid #000; }
        .body { flex: 1; min-width: 0; }
        .name { font-weight: bold; overflow-wrap: anywhere; }
        .qty { font-weight: bold; font-size: 12pt; }
        .split, .where { font-size: 9.5pt; overflow-wrap: anywhere; }
        .where { color: #333; }
        .empty { font-size: 12pt; }
        @media screen { body { padding: 3mm; } }

        """
}
