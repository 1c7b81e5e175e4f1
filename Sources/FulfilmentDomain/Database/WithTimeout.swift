/// Runs `work`, giving up after `timeout`; a failure or a timeout is returned, not thrown.
package func withTimeout<T: Sendable>(
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
