import Foundation
import PickList

/// A small store: two ambient aisles walked out of code order, a chilled and a frozen aisle.
enum Store {
    static let bakery = Aisle(code: "3", name: "Bakery", walkOrder: 10)
    static let tins = Aisle(code: "1", name: "Tins & Jars", walkOrder: 20)
    static let cereal = Aisle(code: "2", name: "Cereal", walkOrder: 30)
    static let dairy = Aisle(code: "6", name: "Dairy", walkOrder: 40)
    static let freezers = Aisle(code: "9", name: "Freezers", walkOrder: 50)

    static func at(_ aisle: Aisle, _ zone: TemperatureZone = .ambient, bay: Int, shelf: String = "1") -> ShelfLocation {
        ShelfLocation(aisle: aisle, zone: zone, bay: bay, shelf: shelf)
    }

    static let header = PickSheetHeader(
        storeName: "Corner Store Deli", pickListID: "B-0007",
        createdAt: Date(timeIntervalSince1970: 1_763_829_300))  // 2025-11-22 16:35 UTC
}

/// A line of order `number`; the order id is derived from the number unless given.
func line(
    _ number: String, _ product: String, _ quantity: Int, name: String? = nil, barcode: String? = nil,
    orderID: String? = nil
) -> PickLine {
    PickLine(
        orderID: OrderID(orderID ?? "order-\(number)"), orderNumber: number, productID: ProductID(product),
        productName: name ?? product.capitalized, sku: "SKU-\(product.uppercased())", barcode: barcode,
        quantity: quantity)
}

/// The bays of each section's stops, in route order.
func bays(_ route: PickRoute) -> [[Int]] {
    route.sections.map { $0.stops.map { $0.location!.bay } }
}

/// A deterministic pseudo-random generator, so "random" pick lists are the same on every run.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A busy pick list: `orders` orders of a few lines each over a store of every zone, some products
/// unlocated, some shared between orders, with names that need escaping and wrapping.
func busyPickList(orders: Int, seed: UInt64 = 42) -> (lines: [PickLine], locations: [ProductID: ShelfLocation]) {
    var random = SplitMix64(seed: seed)
    let aisles = [Store.bakery, Store.tins, Store.cereal, Store.dairy, Store.freezers]
    let zones: [TemperatureZone] = [.ambient, .ambient, .ambient, .chilled, .frozen]
    var locations: [ProductID: ShelfLocation] = [:]
    var products: [(id: String, name: String)] = []
    for index in 0..<60 {
        let id = "p\(index)"
        let name =
            index % 7 == 0
            ? "Fish & Chips <Large> \"Family\" Pack no. \(index)" : "Product \(index) Organic Wholegrain Selection"
        products.append((id, name))
        if index % 11 != 0 {
            let aisle = index % aisles.count
            locations[ProductID(id)] = ShelfLocation(
                aisle: aisles[aisle], zone: zones[aisle], bay: Int.random(in: 1...8, using: &random),
                shelf: ["1", "2", "10", "B"].randomElement(using: &random)!)
        }
    }
    var lines: [PickLine] = []
    for order in 0..<orders {
        for _ in 0..<Int.random(in: 1...6, using: &random) {
            let product = products.randomElement(using: &random)!
            lines.append(line("\(1000 + order)", product.id, Int.random(in: 1...4, using: &random), name: product.name))
        }
    }
    return (lines, locations)
}

/// Display columns of a line as a terminal shows it: CJK and emoji are two columns wide.
/// Independent of the library's own measure, so the width tests check it rather than trust it.
func displayColumns(_ line: String) -> Int {
    line.reduce(0) { total, character in
        let value = character.unicodeScalars.first!.value
        let wide =
            (0x1100...0x115F).contains(value) || (0x2E80...0xA4CF).contains(value)
            || (0xAC00...0xD7A3).contains(value) || (0xF900...0xFAFF).contains(value)
            || (0xFF00...0xFF60).contains(value) || (0x1F300...0x1FAFF).contains(value)
        return total + (wide ? 2 : 1)
    }
}
