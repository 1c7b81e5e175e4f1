import PickList
import Testing

@Suite("Confirming a pick by scanning: right product, right order, never more than ordered")
struct PickConfirmationTests {
    static func mozzarellaStop() throws -> (PickRoute, PickStop) {
        let route = try PickRoute(
            lines: [
                line("1042", "mozzarella", 2, barcode: "4006381333931"),
                line("1043", "mozzarella", 4, barcode: "4006381333931"),
                line("1042", "cola", 1, barcode: "012345678905"), line("1042", "loose-carrots", 1),
            ],
            locations: ["mozzarella": Store.at(Store.dairy, .chilled, bay: 2)])
        return (route, try #require(route.stop(for: "mozzarella")))
    }

    @Test("scanning the stop's barcode confirms the pick and says how many are left")
    func rightProduct() throws {
        let (_, stop) = try Self.mozzarellaStop()
        let progress = try stop.confirmPick(.barcode("4006381333931"), quantity: 1, for: "order-1043")
        #expect(progress == PickProgress(ordered: 4, picked: 1))
        #expect(progress.remaining == 3 && !progress.isComplete)
        #expect(
            try stop.confirmPick(.productID("mozzarella"), quantity: 3, for: "order-1043", alreadyPicked: 1).isComplete)
    }

    @Test("another product's barcode is refused as wrong_product")
    func wrongProduct() throws {
        let (_, stop) = try Self.mozzarellaStop()
        #expect(throws: PickRejection.wrongProduct(expected: "mozzarella", scanned: .barcode("012345678905"))) {
            try stop.confirmPick(.barcode("012345678905"), quantity: 1, for: "order-1042")
        }
        #expect(PickRejection.wrongProduct(expected: "mozzarella", scanned: .barcode("1")).code == "wrong_product")
        #expect(!stop.identifies(.productID("cola")))
    }

    @Test("a UPC-A barcode read as EAN-13 (an extra leading zero) is the same product")
    func gtinLeadingZeros() throws {
        let (route, _) = try Self.mozzarellaStop()
        let cola = try #require(route.stop(matching: .barcode("0012345678905")))
        #expect(cola.productID == "cola")
        #expect(cola.identifies(.barcode(" 012345678905 ")))
        #expect(!cola.identifies(.barcode("12345678906")))
    }

    @Test("a product without a barcode is confirmed by its id, never by a barcode")
    func noBarcode() throws {
        let (route, _) = try Self.mozzarellaStop()
        let carrots = try #require(route.stop(for: "loose-carrots"))
        #expect(!carrots.identifies(.barcode("")))
        #expect(carrots.identifies(.productID("loose-carrots")))
        #expect(route.stop(matching: .barcode("999")) == nil)
    }

    @Test("picking more than the order asked for, counting what is already in the tote, is an over-pick")
    func overPick() throws {
        let (_, stop) = try Self.mozzarellaStop()
        #expect(throws: PickRejection.overPick(ordered: 2, alreadyPicked: 1, requested: 2)) {
            try stop.confirmPick(.barcode("4006381333931"), quantity: 2, for: "order-1042", alreadyPicked: 1)
        }
        #expect(PickRejection.overPick(ordered: 2, alreadyPicked: 1, requested: 2).code == "over_pick")
    }

    @Test("a typo'd huge quantity on a line already started is an over-pick, never a crash")
    func hugeQuantityAfterAPick() throws {
        let (_, stop) = try Self.mozzarellaStop()
        #expect(throws: PickRejection.overPick(ordered: 2, alreadyPicked: 1, requested: Int.max)) {
            try stop.confirmPick(.productID("mozzarella"), quantity: Int.max, for: "order-1042", alreadyPicked: 1)
        }
        #expect(throws: PickRejection.overPick(ordered: 2, alreadyPicked: Int.min, requested: 1)) {
            try stop.confirmPick(.productID("mozzarella"), quantity: 1, for: "order-1042", alreadyPicked: Int.min)
        }
    }

    @Test("a pick for an order that has nothing at this stop, or for no units, is refused")
    func wrongOrderOrQuantity() throws {
        let (_, stop) = try Self.mozzarellaStop()
        #expect(throws: PickRejection.orderNotOnStop("order-9999")) {
            try stop.confirmPick(.productID("mozzarella"), quantity: 1, for: "order-9999")
        }
        #expect(throws: PickRejection.nonPositiveQuantity(0)) {
            try stop.confirmPick(.productID("mozzarella"), quantity: 0, for: "order-1042")
        }
    }

    @Test("stopping short leaves the rest as remaining: the line is picked short")
    func shortPick() throws {
        let (_, stop) = try Self.mozzarellaStop()
        let progress = try stop.confirmPick(.productID("mozzarella"), quantity: 3, for: "order-1043")
        #expect(progress.remaining == 1)
        #expect(!progress.isComplete)
    }
}
