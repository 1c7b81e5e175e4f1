import Foundation

/// An order's lines, history and age check as `order_view` (`sql/routines/order_view.sql`) returns them (JSON
/// columns, so the whole order is one row), decoded into the domain types.
///
/// Timestamps travel as whole microseconds since 2000-01-01 UTC, PostgreSQL's own resolution,
/// and become `Date`s by the same arithmetic PostgresNIO uses for a `timestamptz` column, so a
/// time read here equals the same time read as a column.
///
/// A status or kind this version does not know is an error naming the JSON column and field
/// (`UnknownStoredValue`), never a default.
package enum OrderParts {
    package static func date(micros: Int64) -> Date {
        Date(timeInterval: Double(micros) / Double(1_000_000), since: Date(timeIntervalSince1970: 946_684_800))
    }

    private struct Line: Decodable {
        package var productId: UUID, name: String, unitPrice: Int64, quantity: Int, picked: Int?, minimumAge: Int?, removed: Bool
        package var discount: Int64?
        package var substitution: String?, substituteIds: [UUID]?, substitutedQuantity: Int?
        package var substitutionId: UUID?, substituteFor: UUID?, substitutionStatus: String?, decidedAt: Int64?
        package var pickedShort: Bool?, held: Int?, amount: Int64?
        package var taxClass: String?, taxRate: Int?
        package var refunded: Int64?
    }
    private struct Arrival: Decodable {
        package var at: Int64, bay: String?, vehicle: String?, note: String?
    }
    private struct Event: Decodable {
        package var from: String?, to: String, actorId: UUID?, actorName: String?, reason: String?, at: Int64, kind: String?
    }
    private struct Check: Decodable {
        package var required: Int?, minimumAge: Int?, method: String?, by: UUID?, byName: String?, at: Int64?
    }

    package static func lines(_ json: String) throws -> [OrderLine] {
        try JSONDecoder().decode([Line].self, from: Data(json.utf8)).map { line in
            var substitute: OrderLine.Substitute?
            if let id = line.substitutionId, let original = line.substituteFor {
                substitute = OrderLine.Substitute(
                    id: SubstitutionID(id), replaces: ProductID(original),
                    status: try SubstitutionStatus.stored(line.substitutionStatus, column: "lines.substitutionStatus") ?? .proposed,
                    decidedAt: line.decidedAt.map(date(micros:)))
            }
            return OrderLine(
                productID: ProductID(line.productId), name: line.name, unitPrice: line.unitPrice, quantity: line.quantity,
                pickedQuantity: line.picked, minimumAge: line.minimumAge, removed: line.removed, discount: line.discount ?? 0,
                substitution: SubstitutionPreference(
                    kind: try SubstitutionPreference.Kind.stored(line.substitution, column: "lines.substitution") ?? .none,
                    productIDs: (line.substituteIds ?? []).map(ProductID.init)),
                substitutedQuantity: line.substitutedQuantity ?? 0,
                substitute: substitute, pickedShort: line.pickedShort ?? false, heldQuantity: line.held, chargedAmount: line.amount,
                tax: try TaxClass.stored(line.taxClass, column: "lines.taxClass").flatMap { taxClass in
                    line.taxRate.map { LineTax(taxClass: taxClass, rateBasisPoints: $0) }
                }, refunded: line.refunded ?? 0)
        }
    }

    package static func taxSeller(_ json: String) throws -> TaxSeller {
        try JSONDecoder().decode(TaxSeller.self, from: Data(json.utf8))
    }

    package static func arrival(_ json: String) throws -> OrderArrival {
        let arrival = try JSONDecoder().decode(Arrival.self, from: Data(json.utf8))
        return OrderArrival(at: date(micros: arrival.at), bay: arrival.bay, vehicle: arrival.vehicle, note: arrival.note)
    }

    package static func history(_ json: String) throws -> [OrderEvent] {
        try JSONDecoder().decode([Event].self, from: Data(json.utf8)).map {
            OrderEvent(
                from: try OrderStatus.stored($0.from, column: "history.from"), to: try OrderStatus.stored($0.to, column: "history.to"),
                actorID: $0.actorId.map(UserID.init), actorName: $0.actorName, reason: $0.reason, at: date(micros: $0.at),
                kind: try OrderEvent.Kind.stored($0.kind, column: "history.kind") ?? .status)
        }
    }

    /// The recorded confirmation when there is one; else what the remaining lines require, if anything.
    package static func idCheck(_ json: String) throws -> IDCheck? {
        let check = try JSONDecoder().decode(Check.self, from: Data(json.utf8))
        if let age = check.minimumAge, let method = try IDConfirmation.Method.stored(check.method, column: "id_check.method"), let by = check.by,
            let at = check.at
        {
            return IDCheck(
                minimumAge: age,
                confirmation: IDConfirmation(
                    method: method, confirmedBy: UserID(by), confirmedByName: check.byName ?? "staff",
                    confirmedAt: date(micros: at)))
        }
        return check.required.map { IDCheck(minimumAge: $0, confirmation: nil) }
    }
}
