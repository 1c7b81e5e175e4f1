import Foundation
import FulfilmentDomain

extension API {

    func collectOrder(_ input: Operations.CollectOrder.Input) async throws -> Operations.CollectOrder.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        let idChecked = body.idChecked == true ? IDConfirmation.Method(rawValue: body.idCheckMethod?.rawValue ?? "seen") : nil
        let (identity, order) = try await Self.counted(preview: false) {
            try await services.collections.collect(
                token: body.token, by: try Caller.current, idChecked: idChecked, key: input.headers.idempotencyKey, logger: logger)
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
