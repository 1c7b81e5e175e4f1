import Foundation
import PostgresNIO

extension API {
    func getHealth(_ input: Operations.GetHealth.Input) async throws -> Operations.GetHealth.Output {
        .ok(.init(body: .json(.init(status: .ok))))
    }

    /// Ready means the database answers within two seconds and every migration this binary
    /// knows is recorded as applied; a load balancer should not route here otherwise.
    func getReadiness(_ input: Operations.GetReadiness.Input) async throws -> Operations.GetReadiness.Output {
        let expected = Set(migrations.map(\.version))
        let database = self.database
        let check: Result<Set<Int>, any Error> = await withTimeout(.seconds(2)) {
            var applied = Set<Int>()
            let rows = try await database.client.run("SELECT version FROM schema_migrations", logger: Logger(label: "fulfilment.readiness"))
            for try await version in rows.decode(Int.self) { applied.insert(version) }
            return applied
        }
        switch check {
        case .success(let applied) where expected.isSubset(of: applied):
            return .ok(.init(body: .json(.init(status: .ok, checks: .init(additionalProperties: ["database": "ok", "migrations": "ok"])))))
        case .success(let applied):
            let pending = expected.subtracting(applied).count
            return .serviceUnavailable(.init(body: .json(.init(
                status: .unavailable,
                checks: .init(additionalProperties: ["database": "ok", "migrations": "\(pending) pending"])))))
        case .failure:
            return .serviceUnavailable(.init(body: .json(.init(
                status: .unavailable, checks: .init(additionalProperties: ["database": "unreachable"])))))
        }
    }
}

/// Runs `work`, giving up after `timeout`; a failure or a timeout is returned, not thrown.
func withTimeout<T: Sendable>(
    _ timeout: Duration, _ work: @escaping @Sendable () async throws -> T
) async -> Result<T, any Error> {
    await withTaskGroup(of: Result<T, any Error>?.self) { group in
        group.addTask { do { return .success(try await work()) } catch { return .failure(error) } }
        group.addTask {
            try? await Task.sleep(for: timeout)
            return nil
        }
        let first = await group.next()!
        group.cancelAll()
        return first ?? .failure(CancellationError())
    }
}
