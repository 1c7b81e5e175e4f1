import PickList
import Testing

@Suite("Products the store hasn't located are listed at the end, never dropped")
struct UnlocatedTests {
    @Test("unlocated products come after every aisle, by name, with their totes")
    func unlocatedAtTheEnd() throws {
        let route = try PickRoute(
            lines: [
                line("1042", "zucchini", 1, name: "Zucchini"), line("1043", "anchovies", 2, name: "Anchovies"),
                line("1042", "peas", 1), line("1043", "zucchini", 1, name: "Zucchini"),
            ],
            locations: ["peas": Store.at(Store.freezers, .frozen, bay: 1)])
        #expect(route.sections.flatMap(\.stops).map(\.productID) == ["peas"])
        #expect(route.unlocated.map(\.productID) == ["anchovies", "zucchini"])
        #expect(route.unlocated.allSatisfy { $0.location == nil })
        #expect(route.stop(for: "zucchini")?.allocations.map(\.tote.label) == ["A", "B"])

        let text = route.textSheet(header: Store.header, width: .wide80)
        let frozen = try #require(text.range(of: "FROZEN"))
        let unlocated = try #require(text.range(of: "UNLOCATED"))
        #expect(frozen.upperBound < unlocated.lowerBound)
        #expect(text.contains("Zucchini ×2 — #1042 ×1 (tote A), #1043 ×1 (tote B)"))

        let html = route.htmlSheet(header: Store.header)
        let frozenHTML = try #require(html.range(of: "<h2>Frozen</h2>"))
        let unlocatedHTML = try #require(html.range(of: "<h2>Unlocated"))
        #expect(frozenHTML.upperBound < unlocatedHTML.lowerBound)
    }

    @Test("a pick list where nothing is located still prints every product")
    func nothingLocated() throws {
        let route = try PickRoute(lines: [line("1042", "bread", 1), line("1042", "milk", 3)], locations: [:])
        #expect(route.sections.isEmpty)
        #expect(route.unlocated.map(\.quantity) == [1, 3])
        let text = route.textSheet(header: Store.header, width: .receipt42)
        #expect(text.contains("[ ] 1. Bread ×1"))
        #expect(text.contains("[ ] 2. Milk ×3"))
    }

    @Test("an empty pick list prints a sheet that says there is nothing to pick")
    func emptyPickList() throws {
        let route = try PickRoute(lines: [], locations: [:])
        #expect(route.stops.isEmpty)
        #expect(route.textSheet(header: Store.header, width: .wide80).contains("Nothing to pick."))
        #expect(route.htmlSheet(header: Store.header).contains("Nothing to pick."))
    }
}
