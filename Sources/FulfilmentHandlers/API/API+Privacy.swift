import Foundation
import FulfilmentDomain

/// A customer's data is theirs (issue 32): the export and erasure.
extension API {

    /// Answered by `ExportMiddleware`, which streams the document before this handler is
    /// reached (the generator would hold a JSON body whole); reaching here is a wiring mistake.
    func exportMe(_ input: Operations.ExportMe.Input) async throws -> Operations.ExportMe.Output {
        logger.error("exportMe reached its handler: ExportMiddleware is not installed")
        throw APIError.internal
    }

    func eraseMe(_ input: Operations.EraseMe.Input) async throws -> Operations.EraseMe.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        let content = try input.query.content.map { try Erasures.Content.matching($0.rawValue) } ?? .keep
        do {
            try await services.erasures.eraseSelf(try Identity.required, password: body.password, content: content, logger: logger)
        } catch AccountError.wrongPassword {
            throw AccountError.wrongPassword.apiError.naming(field: "password")
        }
        return .noContent(.init())
    }

    func eraseUser(_ input: Operations.EraseUser.Input) async throws -> Operations.EraseUser.Output {
        guard let user = UserID(input.path.userId) else { throw PrivacyError.userNotFound }
        let content = try input.query.content.map { try Erasures.Content.matching($0.rawValue) } ?? .keep
        try await services.erasures.eraseCustomer(user, by: try Identity.required, content: content, logger: logger)
        return .noContent(.init())
    }

    func eraseStaff(_ input: Operations.EraseStaff.Input) async throws -> Operations.EraseStaff.Output {
        _ = try StoreID.parse(input.path.storeId, notFound: .storeNotFound)
        guard let user = UserID(input.path.userId) else { throw PrivacyError.userNotFound }
        try await services.erasures.eraseStaff(user, by: try Identity.required, logger: logger)
        return .noContent(.init())
    }
}
