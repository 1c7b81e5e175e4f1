import Foundation
import FulfilmentDomain
import OpenAPIRuntime
import QRReceipt

/// Someone else collects (issue 48): the order's customer names a person, shares the pass's QR,
/// and may revoke it; staff of the store see who was named.
extension API {
    func createCollectorPass(_ input: Operations.CreateCollectorPass.Input) async throws -> Operations.CreateCollectorPass.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        guard let order = OrderID(input.path.orderId) else { throw OrderError.orderNotFound }
        let identity = try Identity.required
        let pass = try await services.collectorPasses.create(order: order, name: body.name, by: identity.userID, logger: logger)
        return .created(.init(body: .json(.init(pass, owner: true, now: services.clock()))))
    }

    func listCollectorPasses(_ input: Operations.ListCollectorPasses.Input) async throws -> Operations.ListCollectorPasses.Output {
        guard let order = OrderID(input.path.orderId) else { throw OrderError.orderNotFound }
        let identity = try Identity.required
        let passes = try await services.collectorPasses.list(order: order, visibleTo: identity, logger: logger)
        let now = services.clock()
        return .ok(.init(body: .json(.init(items: passes.map { .init($0, owner: identity.role == .customer, now: now) }, nextCursor: nil))))
    }

    func revokeCollectorPass(_ input: Operations.RevokeCollectorPass.Input) async throws -> Operations.RevokeCollectorPass.Output {
        guard let order = OrderID(input.path.orderId) else { throw OrderError.orderNotFound }
        guard let passID = UUID(uuidString: input.path.passId) else { throw CollectorPassError.notFound }
        let identity = try Identity.required
        let pass = try await services.collectorPasses.revoke(pass: passID, of: order, by: identity.userID, logger: logger)
        return .ok(.init(body: .json(.init(pass, owner: true, now: services.clock()))))
    }

    func getCollectorPassPng(_ input: Operations.GetCollectorPassPng.Input) async throws -> Operations.GetCollectorPassPng.Output {
        let scale = input.query.scale ?? 8
        guard (1...100).contains(scale) else { throw APIError.invalidField("scale", "The scale must be between 1 and 100.") }
        guard let order = OrderID(input.path.orderId) else { throw OrderError.orderNotFound }
        guard let passID = UUID(uuidString: input.path.passId) else { throw CollectorPassError.notFound }
        let identity = try Identity.required
        let passes = try await services.collectorPasses.list(order: order, visibleTo: identity, logger: logger)
        guard let pass = passes.first(where: { $0.id == passID }) else { throw CollectorPassError.notFound }
        return .ok(.init(body: .png(HTTPBody(try QRCode.encode(pass.text).png(scale: scale)))))
    }
}

extension Components.Schemas.CollectorPass {
    /// `owner`: the order's customer, who alone sees the pass's token and QR.
    init(_ pass: CollectorPass, owner: Bool, now: Date) {
        self.init(
            id: pass.id.uuidString.lowercased(), orderId: pass.orderID.description, name: pass.name,
            status: .init(rawValue: pass.status(at: now).rawValue)!, token: owner ? pass.text : nil,
            qrPng: owner ? "/v1/orders/\(pass.orderID)/collectors/\(pass.id.uuidString.lowercased())/qr.png" : nil,
            createdAt: pass.createdAt, expiresAt: pass.expiresAt, revokedAt: pass.revokedAt, usedAt: pass.usedAt)
    }
}
