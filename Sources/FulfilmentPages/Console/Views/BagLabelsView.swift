import Foundation
import FulfilmentDomain
import QRReceipt

/// The labels of an order's bags (issue 47), one per bag, to print and stick on: the order's
/// number, the customer's name, "bag 2 of 3", the bag's zone, the slot on the store's clock with
/// the zone named, and the bag's code as a QR symbol (drawn as SVG here) with the code under it,
/// for the staging scan. `80mm` is a receipt printer's roll, one label under the other; `a4` a
/// sheet of labels.
enum BagLabelsView {
    enum Size: String, Sendable, CaseIterable {
        case roll = "80mm"
        case sheet = "a4"
    }

    static func labels(_ order: Order, size: Size, zone: TimeZone?) throws -> HTML {
        let bags = order.bags.bags
        guard !bags.isEmpty else {
            return "<p class=\"hint\" id=\"no-bags\">Order \(order.number) has no bags yet: its labels print once it is packed.</p>"
        }
        let slot: HTML =
            order.pickupSlot.map { slot in
                "<p class=\"label-slot\">Slot \(SlotText.label(slot, in: zone ?? order.pickupTimeZone)) (\(BoardView.zoneName(zone ?? order.pickupTimeZone)))</p>"
            } ?? "<p class=\"label-slot\">No slot</p>"
        let items = try bags.map { bag -> HTML in
            // The symbol is drawn by this codebase from the bag's own code (digits and a dash).
            let symbol = HTML(trusted: try QRCode.encode(bag.code).svg(moduleSize: 4))
            return """
                <article class="bag-label zone-\(bag.zone.rawValue)" id="label-\(bag.number)">
                <p class="label-order">Order \(order.number)</p>
                <p class="label-name">\(order.customerName)</p>
                <p class="label-count">Bag \(bag.number) of \(bags.count)</p>
                <p class="label-zone">\(bag.zone.rawValue.uppercased())</p>
                \(slot)
                <div class="label-code">\(symbol)<p class="label-code-text">\(bag.code)</p></div>
                </article>
                """
        }
        return """
            <div class="bag-labels labels-\(size == .roll ? "roll" : "sheet")" id="bag-labels" data-size="\(size.rawValue)">\(items)</div>
            """
    }
}
