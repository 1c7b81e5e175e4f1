import PickList
import Testing

@Suite("The text sheet fits the printer: never wider than 80 or 42 columns")
struct TextSheetTests {
    /// A pick list built to overflow: long words, long multi-word names, CJK, emoji, long order
    /// numbers, a stop shared by many orders, a long store name and pick list id.
    static func overflowingWalk() throws -> (PickRoute, PickSheetHeader) {
        var lines = [
            line("1042", "long-word", 1, name: String(repeating: "Supercalifragilistic", count: 8)),
            line(
                "1042", "long-name", 2,
                name: "Extra Mature Cheddar Cheese Family Pack With Crackers And Chutney Selection Box"),
            line("1043", "cjk", 1, name: "日本の緑茶ティーバッグ徳用パック百袋入り特選宇治抹茶入り玄米茶"),
            line("1043", "emoji", 1, name: "🍕🍕🍕🍕🍕🍕🍕🍕🍕🍕🍕🍕🍕🍕🍕🍕🍕🍕🍕🍕🍕🍕🍕🍕 Party Pizza"),
            line("123456789012345678901234567890", "milk", 1),
        ]
        lines += (2000..<2030).map { line("\($0)", "bread", 1) }
        let aisle = Aisle(
            code: "12B", name: "World Foods, Spices, Sauces and Everything Else Nobody Could Find", walkOrder: 1)
        let locations: [ProductID: ShelfLocation] = [
            "long-word": Store.at(aisle, bay: 1),
            "long-name": Store.at(aisle, bay: 2, shelf: "Top shelf behind the sign"),
            "cjk": Store.at(aisle, bay: 3), "bread": Store.at(Store.bakery, bay: 4),
        ]
        var header = Store.header
        header.storeName = "The Extremely Long Named Community Cooperative Supermarket of Greater Little Snoring"
        header.pickListID = "0b7c3a2e-9f51-4c1d-8e6b-2a4f5d6c7b8a-and-some-more-characters"
        return (try PickRoute(lines: lines, locations: locations), header)
    }

    @Test("no line is wider than the printer, however long the names", arguments: PrinterWidth.allCases)
    func neverWiderThanThePrinter(width: PrinterWidth) throws {
        let (route, header) = try Self.overflowingWalk()
        let text = route.textSheet(header: header, width: width)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count > 20)
        for (number, line) in lines.enumerated() {
            #expect(
                displayColumns(line) <= width.columns, "line \(number + 1) is \(displayColumns(line)) wide: \(line)")
        }
        // Wrapping must not lose anything: every order and product is still on the sheet.
        let joined = lines.joined()
        #expect(joined.contains("#123456789012345678901234567890"))
        #expect(joined.contains("#2029 ×1 (tote AF)"))
        #expect(
            joined.replacingOccurrences(of: " ", with: "").contains(String(repeating: "Supercalifragilistic", count: 8))
        )
    }

    @Test("a name with a newline or tab can't start a line of its own")
    func controlCharactersInNames() throws {
        let route = try PickRoute(lines: [line("1042", "milk", 1, name: "Milk\nFREE\tGIFT\u{1B}")], locations: [:])
        let text = route.textSheet(header: Store.header, width: .receipt42)
        #expect(text.contains("[ ] 1. Milk FREE GIFT"))
        #expect(!text.split(separator: "\n").contains { $0.hasPrefix("FREE") })
        #expect(!text.contains("\u{1B}") && !text.contains("\t"))
    }

    @Test("the receipt sheet reads top to bottom: header, totes, zones, aisles, stops")
    func receiptLayout() throws {
        let route = try PickRoute(
            lines: [
                line("1043", "mozzarella", 4, name: "Mozzarella"), line("1042", "mozzarella", 2, name: "Mozzarella"),
                line("1042", "sourdough", 1, name: "Sourdough Loaf"), line("1043", "garlic", 1, name: "Garlic Bread"),
            ],
            locations: [
                "mozzarella": Store.at(Store.dairy, .chilled, bay: 4, shelf: "2"),
                "garlic": Store.at(Store.bakery, bay: 2, shelf: "B"),
            ])
        #expect(
            route.textSheet(header: Store.header, width: .receipt42) == """
                PICK LIST: Corner Store Deli
                Pick list B-0007
                Created 2025-11-22 16:35 GMT
                2 orders, 3 stops, 8 items
                Totes: A=#1042, B=#1043

                ==========================================
                AMBIENT
                ==========================================

                Aisle 3 - Bakery (bays ascending)
                ------------------------------------------
                [ ] 1. Garlic Bread ×1 — #1043 ×1 (tote B)
                    Bay 2, shelf B, SKU SKU-GARLIC

                ==========================================
                CHILLED
                ==========================================

                Aisle 6 - Dairy (bays ascending)
                ------------------------------------------
                [ ] 2. Mozzarella ×6 — #1042 ×2 (tote A),
                    #1043 ×4 (tote B)
                    Bay 4, shelf 2, SKU SKU-MOZZARELLA

                ==========================================
                UNLOCATED (not on the store map)
                ==========================================
                [ ] 3. Sourdough Loaf ×1 —
                    #1042 ×1 (tote A)
                    SKU SKU-SOURDOUGH
                ==========================================
                End of pick list.

                """)
    }
}
