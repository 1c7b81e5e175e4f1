import Foundation
import FulfilmentDomain
import QRReceipt

extension API {

    func collectOrder(_ input: Operations.CollectOrder.Input) async throws -> Operations.CollectOrder.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        let idChecked = body.idChecked == true ? IDConfirmation.Method(rawValue: body.idCheckMethod?.rawValue ?? "seen") : nil
        if let count = body.bagsHandedOver, !(0...OrderBag.count.upperBound).contains(count) {
            throw APIError.invalidField("bagsHandedOver", "Bags handed over are a whole number from 0 to 50.")
        }
        let (identity, order) = try await Self.counted(preview: false) {
            try await services.collections.collect(
                token: body.token, by: try Caller.current, idChecked: idChecked, bagsHandedOver: body.bagsHandedOver,
                key: input.headers.idempotencyKey, logger: logger)
        }
        return .ok(.init(body: .json(try .init(order, for: identity))))
    }

    func previewCollection(_ input: Operations.PreviewCollection.Input) async throws -> Operations.PreviewCollection.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        let (identity, order) = try await Self.counted(preview: true) {
            try await services.collections.preview(token: body.token, by: try Caller.current, logger: logger)
        }
        return .ok(.init(body: .json(try .init(order, for: identity))))
    }

    func findCollection(_ input: Operations.FindCollection.Input) async throws -> Operations.FindCollection.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        if let text = body.code {
            guard let code = PickupShortCode.typed(text) else {
                throw APIError.invalidField("code", "A code is the twelve letters printed under the QR, as KDPT MRGB HLCN.")
            }
            return .ok(.init(body: .json(.init(try await services.collections.find(shortCode: code, by: try Identity.required, logger: logger)))))
        }
        guard let number = body.orderNumber, let typed = body.surname else {
            throw APIError(
                .unprocessableContent, "missing_field", "Send the code under the QR, or the order number and the customer's surname.",
                details: ["field": .string(body.orderNumber == nil ? "orderNumber" : "surname")])
        }
        guard DeskLookup.numbers.contains(number) else {
            throw APIError.invalidField("orderNumber", "An order number is a whole number from 1 to \(DeskLookup.numbers.upperBound).")
        }
        let surname = typed.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (2...100).contains(surname.unicodeScalars.count), !surname.unicodeScalars.contains("\0") else {
            throw APIError.invalidField("surname", "A surname is 2 to 100 characters.")
        }
        let found = try await services.collections.find(
            DeskLookup(number: number, surname: surname), by: try Identity.required, logger: logger)
        return .ok(.init(body: .json(.init(found))))
    }

    /// Counts a scan by its outcome: `collected` (or `ready` for a preview), else the refusal's code.
    private static func counted(preview: Bool, _ scan: () async throws -> (Identity, Order)) async throws -> (Identity, Order) {
        do {
            let order = try await scan()
            ServiceMetrics.collection(outcome: preview ? "ready" : "collected", preview: preview)
            return order
        } catch let refusal as OrderError {
            ServiceMetrics.collection(outcome: refusal.apiError.code, preview: preview)
            throw refusal
        }
    }
}

extension Components.Schemas.CollectionFound {
    init(_ found: DeskFound) {
        self.init(orderId: found.order.description, orderNumber: found.number, customerName: found.customerName, pickupToken: found.token)
    }
}
