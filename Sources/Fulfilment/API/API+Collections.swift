import Foundation

extension API {
    var collections: Collections { Collections(database: database, verifier: keyring.verifier) }

    func collectOrder(_ input: Operations.CollectOrder.Input) async throws -> Operations.CollectOrder.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        let idChecked = body.idChecked == true ? IDConfirmation.Method(rawValue: body.idCheckMethod?.rawValue ?? "seen") : nil
        let order = try await collections.collect(token: body.token, by: try Identity.required, idChecked: idChecked, logger: logger)
        return .ok(.init(body: .json(.init(order))))
    }

    func previewCollection(_ input: Operations.PreviewCollection.Input) async throws -> Operations.PreviewCollection.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        let order = try await collections.preview(token: body.token, by: try Identity.required, logger: logger)
        return .ok(.init(body: .json(.init(order))))
    }
}
