extension PickRoute {
    /// The sheet as plain text for a fixed-width printer.
    ///
    /// No line is wider than `width` columns (long names wrap; a wide character counts as two
    /// columns). Control characters in names are printed as spaces. The text is UTF-8 with
    /// "×" and "—"; a printer without UTF-8 needs transcoding by the caller. Ends with a newline.
    public func textSheet(header: PickSheetHeader, width: PrinterWidth) -> String {
        var sheet = TextSheet(width: width.columns)
        sheet.paragraph(["PICK", "LIST:"] + TextWrapping.words(header.storeName))
        sheet.paragraph(["Pick", "list"] + TextWrapping.words(header.pickListID))
        sheet.paragraph(["Created"] + TextWrapping.words(header.createdText))
        let stopCount = sections.reduce(unlocated.count) { $0 + $1.stops.count }
        let counts = [Self.counted(totes.count, "order"), Self.counted(stopCount, "stop"), Self.counted(itemCount, "item")]
        sheet.paragraph(TextWrapping.words(counts.joined(separator: ", ")))
        if !totes.isEmpty {
            let legend = totes.enumerated().map { index, tote in
                "\(tote.label)=#\(tote.orderNumber)" + (index < totes.count - 1 ? "," : "")
            }
            sheet.paragraph(["Totes:"] + legend, indent: "    ")
            // Each slot on a line of its own, so a picker sees which totes are wanted first.
            for tote in totes {
                guard let slot = header.slots[tote.orderID] else { continue }
                sheet.paragraph(["Slot", "\(tote.label):"] + TextWrapping.words(slot), indent: "    ")
            }
        }

        var zone: TemperatureZone?
        for section in sections {
            if section.zone != zone {
                zone = section.zone
                sheet.banner(section.zone.rawValue.uppercased())
            }
            sheet.blank()
            sheet.paragraph(
                ["Aisle", section.aisle.code, "-"] + TextWrapping.words(section.aisle.name)
                    + ["(bays", "\(section.bayDirection.rawValue))"])
            sheet.rule("-")
            for stop in section.stops { sheet.stop(stop) }
        }
        if !unlocated.isEmpty {
            sheet.banner("UNLOCATED (not on the store map)")
            for stop in unlocated { sheet.stop(stop) }
        }
        sheet.rule("=")
        sheet.paragraph(stopCount == 0 ? ["Nothing", "to", "pick."] : ["End", "of", "pick", "list."])
        return sheet.lines.joined(separator: "\n") + "\n"
    }

    static func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
}

/// Accumulates the lines of a text sheet, each no wider than `width`.
private struct TextSheet {
    let width: Int
    var lines: [String] = []

    init(width: Int) { self.width = width }

    mutating func paragraph(_ words: [String], indent: String = "  ") {
        lines += TextWrapping.wrap(words, width: width, continuationPrefix: indent)
    }

    mutating func blank() { lines.append("") }

    mutating func rule(_ character: Character) { lines.append(String(repeating: character, count: width)) }

    mutating func banner(_ title: String) {
        blank()
        rule("=")
        paragraph(TextWrapping.words(title))
        rule("=")
    }

    /// "[ ] 12. Mozzarella ×6 — #1042 ×2 (tote A), #1043 ×4 (tote B)", then where to find it.
    mutating func stop(_ stop: PickStop) {
        var words = TextWrapping.words(stop.productName) + ["×\(stop.quantity)", "—"]
        for (index, allocation) in stop.allocations.enumerated() {
            let separator = index < stop.allocations.count - 1 ? "," : ""
            // Kept as one word so a split never separates an order from its tote.
            let substitution = allocation.substitution.map { " [\($0)]" } ?? ""
            words.append(
                "#\(allocation.tote.orderNumber) ×\(allocation.quantity) (tote \(allocation.tote.label))\(substitution)\(separator)")
        }
        lines += TextWrapping.wrap(
            words, width: width, firstPrefix: "[ ] \(stop.sequence). ", continuationPrefix: "    ")
        var place: [String] = []
        if let location = stop.location {
            place = ["Bay", "\(location.bay),", "shelf"] + TextWrapping.words(location.shelf)
            place[place.count - 1] += ","
        }
        place += ["SKU"] + TextWrapping.words(stop.sku)
        lines += TextWrapping.wrap(place, width: width, firstPrefix: "    ", continuationPrefix: "    ")
    }
}
