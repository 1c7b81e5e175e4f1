import Foundation

/// An order's bags as `order_view` returns them (`bags_json`, migration 064).
extension OrderParts {
    private struct Bags: Decodable {
        var placesKept: Bool
        var bags: [Bag]
    }
    private struct Bag: Decodable {
        var number: Int, zone: String, code: String, placeId: UUID?, place: String?, placeKind: String?
        var stagedAt: Int64?, handedOverAt: Int64?
    }

    package static func bags(_ json: String) throws -> OrderBags {
        let parsed = try JSONDecoder().decode(Bags.self, from: Data(json.utf8))
        return OrderBags(
            bags: try parsed.bags.map { bag in
                var place: OrderBag.Place?
                if let id = bag.placeId, let name = bag.place, let kind = try StagingPlaceKind.stored(bag.placeKind, column: "bags.placeKind") {
                    place = OrderBag.Place(id: StagingPlaceID(id), name: name, kind: kind)
                }
                return OrderBag(
                    number: bag.number, zone: try BagZone.stored(bag.zone, column: "bags.zone"), code: bag.code, place: place,
                    stagedAt: bag.stagedAt.map(date(micros:)), handedOverAt: bag.handedOverAt.map(date(micros:)))
            }, placesKept: parsed.placesKept)
    }
}
