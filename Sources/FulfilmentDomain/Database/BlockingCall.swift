import Foundation

/// Blocking work (libpq's calls) on a POSIX thread of its own, so no Swift concurrency thread
/// blocks while it waits. (The tests' `TestSupport.Blocking` is the same, for their sockets and
/// child processes: a test target cannot share this one.)
///
/// A pthread, not Foundation's `Thread`: `pthread_create` reports a thread it could not start,
/// and then this throws. With `Thread`, work that never started left its continuation waiting
/// for ever: the whole test run hung with every thread idle.
package enum BlockingCall {
    /// Runs `work` on a new thread and returns what it returns.
    package static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            do {
                try detach { continuation.resume(with: Result { try work() }) }
            } catch {
                continuation.resume(throwing: error)
            }
        }
    }

    /// Starts `body` on a new detached thread; throws when the thread cannot be started.
    package static func detach(_ body: @escaping @Sendable () -> Void) throws {
        final class Work: @unchecked Sendable {
            package let body: @Sendable () -> Void
            package init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        let work = Unmanaged.passRetained(Work(body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let started = pthread_create(
            &thread, &attributes,
            { raw in
                Unmanaged<Work>.fromOpaque(raw!).takeRetainedValue().body()
                return nil
            }, work)
        guard started == 0 else {
            Unmanaged<Work>.fromOpaque(work).release()
            throw ThreadNotStarted(code: started)
        }
    }
}

/// The system would not start another thread (`pthread_create`'s error code).
package struct ThreadNotStarted: Error, CustomStringConvertible {
    package var code: Int32
    package var description: String { "cannot start a thread: \(String(cString: strerror(code)))" }
}
