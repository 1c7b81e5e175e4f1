import Synchronization

/// The first of several racing outcomes (an answer, a lost connection, a cancellation, a
/// timer), handed once to the continuation that waits for it; the later ones are ignored.
///
/// An outcome may come before the continuation is handed over (a task cancelled at once):
/// it is kept and given the moment the continuation arrives.
package final class FirstOutcome<T: Sendable>: Sendable {
    private struct State {
        package var continuation: CheckedContinuation<T, any Error>?
        package var early: Result<T, any Error>?
        package var settled = false
        package var whenSettled: (@Sendable () -> Void)?
    }
    private let state = Mutex(State())

    package init() {}

    package func deliver(to continuation: CheckedContinuation<T, any Error>) {
        let early = state.withLock { state -> Result<T, any Error>? in
            guard let early = state.early else {
                state.continuation = continuation
                return nil
            }
            state.early = nil
            return early
        }
        if let early { continuation.resume(with: early) }
    }

    /// Records `result` if nothing came first; true when it was the first.
    @discardableResult
    package func settle(_ result: Result<T, any Error>) -> Bool {
        let (first, waiting, hook) = state.withLock { state -> (Bool, CheckedContinuation<T, any Error>?, (@Sendable () -> Void)?) in
            guard !state.settled else { return (false, nil, nil) }
            state.settled = true
            defer {
                state.continuation = nil
                state.whenSettled = nil
            }
            if state.continuation == nil { state.early = result }
            return (true, state.continuation, state.whenSettled)
        }
        waiting?.resume(with: result)
        hook?()
        return first
    }

    /// Runs `hook` once settled (at once if already).
    package func onSettled(_ hook: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            if state.settled { return true }
            state.whenSettled = hook
            return false
        }
        if now { hook() }
    }
}
