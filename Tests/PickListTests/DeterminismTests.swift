import PickList
import Testing

@Suite("The same pick list always prints the same sheet")
struct DeterminismTests {
    @Test(
        "shuffling the lines and rebuilding the location map gives identical text and HTML",
        arguments: [1, 2, 3, 4, 5] as [UInt64])
    func shuffledInput(seed: UInt64) throws {
        let pickList = busyPickList(orders: 60)
        let reference = try PickRoute(lines: pickList.lines, locations: pickList.locations)

        var random = SplitMix64(seed: seed)
        let shuffledLines = pickList.lines.shuffled(using: &random)
        var rebuiltLocations: [ProductID: ShelfLocation] = [:]  // same entries, different insertion order
        for (product, location) in pickList.locations.shuffled(using: &random) { rebuiltLocations[product] = location }
        let shuffled = try PickRoute(lines: shuffledLines, locations: rebuiltLocations)

        #expect(shuffled == reference)
        for width in PrinterWidth.allCases {
            #expect(
                shuffled.textSheet(header: Store.header, width: width)
                    == reference.textSheet(header: Store.header, width: width))
        }
        #expect(shuffled.htmlSheet(header: Store.header) == reference.htmlSheet(header: Store.header))
    }

    @Test("lines that disagree about a product's name resolve the same way in any order")
    func conflictingDetails() throws {
        let lines = [line("1042", "milk", 1, name: "Milk 2L"), line("1043", "milk", 1, name: "Milk (2 litre)")]
        let forwards = try PickRoute(lines: lines, locations: [:])
        let backwards = try PickRoute(lines: lines.reversed(), locations: [:])
        #expect(forwards == backwards)
        #expect(forwards.stop(for: "milk")?.productName == "Milk (2 litre)")
    }

    @Test("two spellings of the same name (é composed or decomposed) print the same bytes in any order")
    func unicodeSpellings() throws {
        let lines = [line("1042", "cafe", 1, name: "Caf\u{E9} Latte"), line("1043", "cafe", 1, name: "Cafe\u{301} Latte")]
        let forwards = try PickRoute(lines: lines, locations: [:]).htmlSheet(header: Store.header)
        let backwards = try PickRoute(lines: lines.reversed(), locations: [:]).htmlSheet(header: Store.header)
        #expect(Array(forwards.utf8) == Array(backwards.utf8))
    }

    @Test("two orders with the same number get their totes in order-id order")
    func duplicateOrderNumbers() throws {
        let lines = [line("1042", "milk", 1, orderID: "b"), line("1042", "milk", 2, orderID: "a")]
        let forwards = try PickRoute(lines: lines, locations: [:])
        let backwards = try PickRoute(lines: lines.reversed(), locations: [:])
        #expect(forwards == backwards)
        #expect(forwards.totes.map(\.orderID) == ["a", "b"])
    }
}
