import PickList
import Testing

@Suite("A picker walks the store once: zones, aisle walk order, serpentine bays")
struct RouteOrderTests {
    @Test("ambient goods come first, then chilled, then frozen, whatever the aisles' walk order")
    func coldGoodsLast() throws {
        let freezersFirst = Aisle(code: "9", name: "Freezers", walkOrder: 1)
        let dairy = Aisle(code: "6", name: "Dairy", walkOrder: 2)
        let route = try PickRoute(
            lines: [line("1042", "peas", 1), line("1042", "milk", 1), line("1042", "bread", 1)],
            locations: [
                "peas": Store.at(freezersFirst, .frozen, bay: 1),
                "milk": Store.at(dairy, .chilled, bay: 1),
                "bread": Store.at(Store.bakery, bay: 1),
            ])
        #expect(route.sections.map(\.zone) == [.ambient, .chilled, .frozen])
        #expect(route.stops.map(\.productID) == ["bread", "milk", "peas"])
    }

    @Test("aisles are visited in the store's walk order, not by their codes")
    func aisleWalkOrder() throws {
        let route = try PickRoute(
            lines: [line("1042", "beans", 1), line("1042", "cornflakes", 1), line("1042", "bread", 1)],
            locations: [
                "beans": Store.at(Store.tins, bay: 1),  // aisle 1, walked second
                "cornflakes": Store.at(Store.cereal, bay: 1),  // aisle 2, walked third
                "bread": Store.at(Store.bakery, bay: 1),  // aisle 3, walked first
            ])
        #expect(route.sections.map(\.aisle.code) == ["3", "1", "2"])
    }

    @Test("bays snake: the first aisle is walked up, the second down, the third up again")
    func serpentineBays() throws {
        var lines: [PickLine] = []
        var locations: [ProductID: ShelfLocation] = [:]
        for aisle in [Store.bakery, Store.tins, Store.cereal] {
            for bay in [5, 1, 3] {
                let product = "\(aisle.code)-\(bay)"
                lines.append(line("1042", product, 1))
                locations[ProductID(product)] = Store.at(aisle, bay: bay)
            }
        }
        let route = try PickRoute(lines: lines, locations: locations)
        #expect(route.sections.map(\.bayDirection) == [.ascending, .descending, .ascending])
        #expect(bays(route) == [[1, 3, 5], [5, 3, 1], [1, 3, 5]])
    }

    @Test("an aisle with nothing to pick is walked past, so it doesn't flip the direction")
    func emptyAislesDoNotCount() throws {
        let route = try PickRoute(
            lines: [
                line("1042", "bread", 1), line("1042", "rolls", 1), line("1042", "oats", 1), line("1042", "muesli", 1),
            ],
            locations: [
                "bread": Store.at(Store.bakery, bay: 1), "rolls": Store.at(Store.bakery, bay: 4),
                // nothing from Tins & Jars, walked between them
                "oats": Store.at(Store.cereal, bay: 2), "muesli": Store.at(Store.cereal, bay: 7),
            ])
        #expect(route.sections.map(\.aisle) == [Store.bakery, Store.cereal])
        #expect(bays(route) == [[1, 4], [7, 2]])
    }

    @Test("each zone pass starts again walking up the bays")
    func serpentineRestartsPerZone() throws {
        let route = try PickRoute(
            lines: [line("1042", "bread", 1), line("1042", "milk", 1), line("1042", "cream", 1)],
            locations: [
                "bread": Store.at(Store.bakery, bay: 2),
                "milk": Store.at(Store.dairy, .chilled, bay: 1), "cream": Store.at(Store.dairy, .chilled, bay: 6),
            ])
        #expect(route.sections.map(\.bayDirection) == [.ascending, .ascending])
        #expect(bays(route) == [[2], [1, 6]])
    }

    @Test("an aisle with chilled and ambient bays is visited once in each zone's pass")
    func aisleSplitAcrossZones() throws {
        let route = try PickRoute(
            lines: [line("1042", "milk", 1), line("1042", "uht", 1), line("1042", "bread", 1)],
            locations: [
                "milk": Store.at(Store.dairy, .chilled, bay: 1),
                "uht": Store.at(Store.dairy, .ambient, bay: 9),
                "bread": Store.at(Store.bakery, bay: 1),
            ])
        #expect(
            route.sections.map { "\($0.zone) \($0.aisle.code) \($0.bayDirection)" }
                == ["ambient 3 ascending", "ambient 6 descending", "chilled 6 ascending"])
    }

    @Test("within a bay, shelves go in number order (2 before 10), then products by name")
    func shelvesThenNames() throws {
        let route = try PickRoute(
            lines: ["rye", "bagels", "wraps", "baps"].map { line("1042", $0, 1) },
            locations: [
                "rye": Store.at(Store.bakery, bay: 1, shelf: "10"),
                "bagels": Store.at(Store.bakery, bay: 1, shelf: "2"),
                "wraps": Store.at(Store.bakery, bay: 1, shelf: "2"), "baps": Store.at(Store.bakery, bay: 1, shelf: "1"),
            ])
        #expect(route.stops.map(\.productID) == ["baps", "bagels", "wraps", "rye"])
    }

    @Test("stops are numbered 1, 2, 3... along the whole walk, unlocated ones included")
    func sequenceNumbers() throws {
        let route = try PickRoute(
            lines: [line("1042", "peas", 1), line("1042", "mystery", 1), line("1042", "bread", 1)],
            locations: ["peas": Store.at(Store.freezers, .frozen, bay: 1), "bread": Store.at(Store.bakery, bay: 1)])
        #expect(route.stops.map(\.sequence) == [1, 2, 3])
        #expect(route.stops.map(\.productID) == ["bread", "peas", "mystery"])
    }
}
