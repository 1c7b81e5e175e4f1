import PickList
import Testing

@Suite("Orders are picked together: one stop per product, split into each order's tote")
struct ConsolidationTests {
    @Test("the same product in two orders is one stop, with each order's share and tote")
    func consolidatesAcrossOrders() throws {
        let route = try PickRoute(
            lines: [
                line("1043", "mozzarella", 4, name: "Mozzarella"),
                line("1042", "mozzarella", 2, name: "Mozzarella"),
                line("1042", "milk", 1),
            ],
            locations: [
                "mozzarella": Store.at(Store.dairy, .chilled, bay: 2), "milk": Store.at(Store.dairy, .chilled, bay: 1),
            ])

        let mozzarella = try #require(route.stop(for: "mozzarella"))
        #expect(route.stops.count == 2)
        #expect(mozzarella.quantity == 6)
        #expect(
            mozzarella.allocations.map { "#\($0.tote.orderNumber) ×\($0.quantity) (tote \($0.tote.label))" }
                == ["#1042 ×2 (tote A)", "#1043 ×4 (tote B)"])
        #expect(
            route.textSheet(header: Store.header, width: .wide80)
                .contains("Mozzarella ×6 — #1042 ×2 (tote A), #1043 ×4 (tote B)"))
    }

    @Test("two lines of one order for the same product add up in that order's tote")
    func sumsWithinAnOrder() throws {
        let route = try PickRoute(
            lines: [line("1042", "eggs", 1), line("1042", "eggs", 2), line("1043", "eggs", 1)],
            locations: ["eggs": Store.at(Store.dairy, .chilled, bay: 3)])
        let eggs = try #require(route.stop(for: "eggs"))
        #expect(eggs.allocations.map(\.quantity) == [3, 1])
        #expect(eggs.quantity == 4)
        #expect(eggs.quantity(for: "order-1042") == 3)
    }

    @Test("totes are labelled in order-number order, comparing numbers as numbers")
    func toteLabelsFollowOrderNumbers() throws {
        let route = try PickRoute(
            lines: [line("1042", "milk", 1), line("999", "milk", 1), line("1000", "milk", 1)], locations: [:])
        #expect(route.totes.map { "\($0.label)=#\($0.orderNumber)" } == ["A=#999", "B=#1000", "C=#1042"])
        #expect(route.tote(for: "order-1042")?.label == "C")
        #expect(route.tote(for: "order-7") == nil)
    }

    @Test("after Z the labels go on AA, AB, ... like spreadsheet columns")
    func toteLabelsPastZ() throws {
        #expect(
            [0, 1, 25, 26, 27, 51, 52, 701, 702].map(Tote.label(forIndex:))
                == ["A", "B", "Z", "AA", "AB", "AZ", "BA", "ZZ", "AAA"])
        let route = try PickRoute(lines: (1...30).map { line("\($0)", "milk", 1) }, locations: [:])
        #expect(route.totes.map(\.label).suffix(4) == ["AA", "AB", "AC", "AD"])
        #expect(route.totes[26].orderNumber == "27")
    }

    @Test("a pick list's item count is every unit of every line")
    func itemCount() throws {
        let pickList = busyPickList(orders: 40)
        let route = try PickRoute(lines: pickList.lines, locations: pickList.locations)
        #expect(route.itemCount == pickList.lines.reduce(0) { $0 + $1.quantity })
        #expect(Set(route.stops.map(\.productID)) == Set(pickList.lines.map(\.productID)))
        #expect(route.totes.count == 40)
    }

    @Test("a line for zero units is refused rather than silently dropped")
    func zeroQuantityRefused() {
        #expect(throws: PickRouteError.nonPositiveQuantity(orderID: "order-1042", productID: "milk", quantity: 0)) {
            try PickRoute(lines: [line("1042", "bread", 1), line("1042", "milk", 0)], locations: [:])
        }
    }
}
