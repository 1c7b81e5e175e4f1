import Foundation
import FulfilmentDomain

/// Messages (issue 44): an order's mail, password resets, and one's name, address and preferences.
extension API {
    func listOrderMessages(_ input: Operations.ListOrderMessages.Input) async throws -> Operations.ListOrderMessages.Output {
        guard let id = OrderID(input.path.orderId) else { throw OrderError.orderNotFound }
        let messages = try await services.mail.messages(of: id, visibleTo: try Identity.required, orders: services.orders, logger: logger)
        return .ok(.init(body: .json(.init(items: try messages.map(Components.Schemas.MessageSummary.init), nextCursor: nil))))
    }

    func listMessages(_ input: Operations.ListMessages.Input) async throws -> Operations.ListMessages.Output {
        let page = try await services.mail.newest(
            for: try Identity.required, cursor: input.query.cursor, limit: try pageSize(input.query.limit), logger: logger)
        return .ok(.init(body: .json(.init(items: try page.items.map(Components.Schemas.MessageSummary.init), nextCursor: page.nextCursor))))
    }

    func getMessage(_ input: Operations.GetMessage.Input) async throws -> Operations.GetMessage.Output {
        guard let id = MessageID(input.path.messageId),
            let message = try await services.mail.message(id, for: try Identity.required, logger: logger)
        else { throw APIError(.notFound, "not_found", "That message was not found.") }
        let (mail, _) = try await services.mail.compose(message, reader: true, logger: logger)
        return .ok(
            .init(body: .json(.init(message: try .init(message), subject: mail.subject, text: mail.text, html: mail.html))))
    }

    func requestPasswordReset(_ input: Operations.RequestPasswordReset.Input) async throws -> Operations.RequestPasswordReset.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        try await services.passwordResets.request(email: body.email, logger: logger)
        return .accepted(
            .init(body: .json(.init(message: "If an account has this address, a link to reset its password is on its way."))))
    }

    func confirmPasswordReset(_ input: Operations.ConfirmPasswordReset.Input) async throws -> Operations.ConfirmPasswordReset.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        try await services.passwordResets.confirm(token: body.token, newPassword: body.newPassword, logger: logger)
        return .noContent(.init())
    }

    func confirmEmailChange(_ input: Operations.ConfirmEmailChange.Input) async throws -> Operations.ConfirmEmailChange.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        _ = try await services.profiles.confirmEmail(token: body.token, logger: logger)
        return .noContent(.init())
    }

    func updateMe(_ input: Operations.UpdateMe.Input) async throws -> Operations.UpdateMe.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        let caller = try Identity.required
        let (user, profile) = try await services.profiles.update(
            caller, name: body.name, email: body.email,
            preferences: body.messagePreferences.map { .init(backInStock: $0.backInStock, reminders: $0.reminders) }, logger: logger)
        let linked = try await services.providerSignIn.linked(caller, logger: logger)
        return .ok(.init(body: .json(.init(user, linked: linked, profile: profile))))
    }
}

extension Components.Schemas.MessageList: CursorList {}
extension Components.Schemas.MessagePage: CursorList {}

extension Components.Schemas.MessageSummary {
    init(_ message: MessageRecord) throws {
        self.init(
            id: message.id.description, kind: try .matching(message.kind.rawValue), recipient: message.recipient,
            status: try .matching(message.status.rawValue), attempts: message.attempts, createdAt: message.createdAt, sentAt: message.sentAt,
            nextAttemptAt: message.nextAttemptAt, lastError: message.lastError, orderId: message.orderID?.description)
    }
}
