import Foundation
import FulfilmentDomain

extension API {

    func getHealth(_ input: Operations.GetHealth.Input) async throws -> Operations.GetHealth.Output {
        .ok(.init(body: .json(.init(status: .ok))))
    }

    /// Ready means the database answers within two seconds and every migration this binary
    /// knows is recorded as applied (`Readiness`); a load balancer should not route here otherwise.
    func getReadiness(_ input: Operations.GetReadiness.Input) async throws -> Operations.GetReadiness.Output {
        // With several servers (issue 29): which one this instance sends its work to.
        let primary = services.database.connection.isMultiHost ? ["primary": services.database.router.currentEndpoint.description] : [:]
        switch await services.readiness.check() {
        case .ready:
            return .ok(
                .init(
                    body: .json(
                        .init(
                            status: .ok,
                            checks: .init(additionalProperties: ["database": "ok", "migrations": "ok"].merging(primary) { $1 })))))
        case .migrationsPending(let pending):
            return .serviceUnavailable(
                .init(
                    body: .json(
                        .init(
                            status: .unavailable,
                            checks: .init(additionalProperties: ["database": "ok", "migrations": "\(pending) pending"])))))
        case .databaseUnreachable:
            return .serviceUnavailable(
                .init(
                    body: .json(
                        .init(
                            status: .unavailable, checks: .init(additionalProperties: ["database": "unreachable"])))))
        }
    }
}
