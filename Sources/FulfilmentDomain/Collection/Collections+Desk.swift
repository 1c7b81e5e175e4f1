import Foundation
import Logging
import QRReceipt

/// What the desk shows for a scan: `Collections.preview`'s verdict, plus the order behind it
/// whenever the token is genuine and of this store (so "pay first", "not ready" and "already
/// collected" still show whose order it is and what is in it), and the totes it was packed in.
package struct DeskScan: Sendable {
    /// Nil when the token is forged, expired, unknown or of another store.
    package var order: Order?
    /// Nil when the order can be handed over now.
    package var refusal: OrderError?
    /// The totes holding the shown order's bags (none when no order is shown).
    package var totes: [String] = []
}

/// What the desk typed instead of a code (issue 46): an order number and a word of the
/// customer's name, `1005 Brown` (a `#` before the number is fine).
package struct DeskLookup: Sendable, Equatable {
    package var number: Int64
    package var surname: String

    /// The most an order number is (its sequence would take centuries to pass it).
    package static let numbers: ClosedRange<Int64> = 1...999_999_999_999

    package init(number: Int64, surname: String) {
        self.number = number
        self.surname = surname
    }

    /// `1005 Brown`, `#1005 brown`: nil for anything else (a code, a bare number).
    package init?(_ text: String) {
        let parts = text.trimmingCharacters(in: .whitespacesAndNewlines).split(maxSplits: 1, whereSeparator: \.isWhitespace)
        guard parts.count == 2 else { return nil }
        let digits = parts[0].hasPrefix("#") ? parts[0].dropFirst() : parts[0]
        guard (1...12).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int64(digits),
            Self.numbers.contains(number)
        else { return nil }
        let surname = parts[1].trimmingCharacters(in: .whitespacesAndNewlines)
        guard (2...100).contains(surname.unicodeScalars.count), !surname.unicodeScalars.contains("\0") else { return nil }
        self.init(number: number, surname: surname)
    }

    /// Only digits: an order number typed without the name (the desk asks for it).
    package static func isBareNumber(_ text: String) -> Bool {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let digits = trimmed.hasPrefix("#") ? trimmed.dropFirst() : Substring(trimmed)
        return (1...12).contains(digits.count) && digits.allSatisfy { $0.isASCII && $0.isNumber }
    }
}

/// An order found by number and name at the desk, with its current code.
package struct DeskFound: Sendable, Equatable {
    package var order: OrderID
    package var number: Int64
    package var customerName: String
    package var token: String
}

extension Collections {
    /// The order `lookup` names at the caller's store, with its current code; `orderNotFound`
    /// when there is none or the name does not match (one answer for both).
    package func find(_ lookup: DeskLookup, by staff: Identity, logger: Logger) async throws -> DeskFound {
        let scope = try StoreScope(staff: staff)
        guard DeskLookup.numbers.contains(lookup.number), (2...100).contains(lookup.surname.unicodeScalars.count),
            !lookup.surname.unicodeScalars.contains("\0"),
            let found = try await CollectionQueries.deskLookup(
                number: lookup.number, surname: lookup.surname.trimmingCharacters(in: .whitespacesAndNewlines), in: scope,
                on: database.client, logger: logger)
        else { throw OrderError.orderNotFound }
        return found
    }

    /// The order whose receipt carries this short code (`PickupShortCode`, already read from
    /// what was typed) at the caller's store, with its current code; `orderNotFound` otherwise.
    package func find(shortCode code: String, by staff: Identity, logger: Logger) async throws -> DeskFound {
        let scope = try StoreScope(staff: staff)
        guard PickupShortCode.typed(code) == code,
            let found = try await CollectionQueries.shortCodeLookup(code, in: scope, on: database.client, logger: logger)
        else { throw OrderError.orderNotFound }
        return found
    }

    /// Runs the preview's one rule (`check`) and, when it refuses an order whose token is
    /// genuine and of this store, shows that order too, with its totes. Changes nothing; one
    /// statement, and one more for the totes of an order shown.
    package func inspect(token scanned: String, by staff: Identity, logger: Logger) async throws -> DeskScan {
        var scan = try await verdict(token: scanned, by: staff, logger: logger)
        if let order = scan.order { scan.totes = try await ToteQueries.totes(of: order.id, on: database.client, logger: logger) }
        return scan
    }

    private func verdict(token scanned: String, by staff: Identity, logger: Logger) async throws -> DeskScan {
        let text = Collections.normalized(scanned)
        var order: Order?
        do {
            (_, order) = try await read(text, by: .resolved(staff), logger: logger)
            try Collections.check(order, issuedWith: text, in: try StoreScope(staff: staff))
            return DeskScan(order: order, refusal: nil)
        } catch let refusal as OrderError {
            switch refusal {
            case .notReady, .alreadyCollected, .orderCancelled, .paymentRequired:
                // `check` reaches these only after the signature, the expiry and the store
                // passed, so the order the token names is this store's to show.
                return DeskScan(order: order, refusal: refusal)
            default:
                return DeskScan(order: nil, refusal: refusal)
            }
        }
    }
}
