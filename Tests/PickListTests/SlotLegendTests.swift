import PickList
import Testing

@Suite("The sheet says each tote's pickup slot, as the caller wrote it")
struct SlotLegendTests {
    @Test("text and HTML sheets print the slot next to its tote; an order without a slot prints none; slot text is escaped")
    func slotsInTheLegend() throws {
        let route = try PickRoute(lines: [line("1042", "milk", 1), line("1043", "milk", 2), line("1044", "bread", 1)], locations: [:])
        var header = Store.header
        header.slots = [OrderID("order-1042"): "Fri 26 Mar 12:00–12:30", OrderID("order-1044"): "Fri 26 Mar <14:00>"]
        let text = route.textSheet(header: header, width: .wide80)
        #expect(text.contains("Slot A: Fri 26 Mar 12:00–12:30"))
        #expect(!text.contains("Slot B:"))
        #expect(text.contains("Slot C: Fri 26 Mar <14:00>"))
        let html = route.htmlSheet(header: header)
        #expect(html.contains("#1042 <span class=\"slot\">Fri 26 Mar 12:00–12:30</span>"))
        #expect(html.contains("#1044 <span class=\"slot\">Fri 26 Mar &lt;14:00&gt;</span>"))
        // Without slots the sheet is what it always was.
        #expect(
            route.textSheet(header: Store.header, width: .wide80)
                == route.textSheet(
                    header: {
                        var h = header
                        h.slots = [:]
                        return h
                    }(), width: .wide80))
        #expect(!route.htmlSheet(header: Store.header).contains("class=\"slot\""))
    }
}
