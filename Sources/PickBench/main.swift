// pick-bench: how long building and printing a pick list's route takes for big pick lists.
// Prints medians; asserts nothing. Run with `swift run -c release pick-bench`.
import Foundation
import PickList

/// Deterministic pseudo-random numbers, so every run benchmarks the same pick list.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A store of `products` products over 20 aisles (14 ambient, 3 chilled, 3 frozen), 5% unlocated.
func storeMap(products: Int, random: inout SplitMix64) -> [ProductID: ShelfLocation] {
    let aisles = (1...20).map { Aisle(code: "\($0)", name: "Aisle \($0)", walkOrder: ($0 * 7) % 20) }
    var locations: [ProductID: ShelfLocation] = [:]
    locations.reserveCapacity(products)
    for index in 0..<products where index % 20 != 0 {
        let aisle = Int.random(in: 0..<20, using: &random)
        let zone: TemperatureZone = aisle < 14 ? .ambient : aisle < 17 ? .chilled : .frozen
        locations[ProductID("product-\(index)")] = ShelfLocation(
            aisle: aisles[aisle], zone: zone, bay: Int.random(in: 1...24, using: &random),
            shelf: "\(Int.random(in: 1...6, using: &random))")
    }
    return locations
}

func orderLines(orders: Int, linesPerOrder: Int, products: Int, random: inout SplitMix64) -> [PickLine] {
    var lines: [PickLine] = []
    lines.reserveCapacity(orders * linesPerOrder)
    for order in 0..<orders {
        for _ in 0..<linesPerOrder {
            let product = Int.random(in: 0..<products, using: &random)
            lines.append(
                PickLine(
                    orderID: OrderID("order-\(order)"), orderNumber: "\(10_000 + order)",
                    productID: ProductID("product-\(product)"), productName: "Product \(product) Everyday Value Pack",
                    sku: "SKU-\(product)", barcode: "\(5_000_000_000_000 + product)",
                    quantity: Int.random(in: 1...3, using: &random)))
        }
    }
    return lines.shuffled(using: &random)
}

/// Median wall time of `runs` calls of `body`, in milliseconds.
func medianMilliseconds<T>(runs: Int, _ body: () throws -> T) rethrows -> (Double, T) {
    let clock = ContinuousClock()
    var times: [Double] = []
    var last: T?
    for _ in 0..<runs {
        let start = clock.now
        last = try body()
        let elapsed = clock.now - start
        times.append(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
    }
    times.sort()
    return (times[times.count / 2], last!)
}

func format(_ ms: Double) -> String { String(format: "%8.2f ms", ms) }

let header = PickSheetHeader(
    storeName: "Bench Store", pickListID: "bench", createdAt: Date(timeIntervalSince1970: 1_763_829_300))
var random = SplitMix64(state: 2025)
let products = 10_000
let locations = storeMap(products: products, random: &random)
print("pick-bench: \(products) products, \(locations.count) located; medians")

for (orders, runs) in [(1_000, 21), (10_000, 7)] {
    let lines = orderLines(orders: orders, linesPerOrder: 10, products: products, random: &random)
    let (build, route) = try medianMilliseconds(runs: runs) { try PickRoute(lines: lines, locations: locations) }
    let (text80, sheet80) = medianMilliseconds(runs: runs) { route.textSheet(header: header, width: .wide80) }
    let (text42, _) = medianMilliseconds(runs: runs) { route.textSheet(header: header, width: .receipt42) }
    let (html, page) = medianMilliseconds(runs: runs) { route.htmlSheet(header: header) }
    print(
        "\(orders) orders × 10 lines (\(lines.count) lines → \(route.stops.count) stops, \(route.unlocated.count) unlocated), \(runs) runs:"
    )
    print("  build route  \(format(build))\(orders == 1_000 ? "   (goal < 50 ms)" : "")")
    print("  text 80 col  \(format(text80))   (\(sheet80.utf8.count / 1024) KiB)")
    print("  text 42 col  \(format(text42))")
    print("  HTML         \(format(html))   (\(page.utf8.count / 1024) KiB)")
}
