import Synchronization

/// A flag tasks can wait on: ``wait()`` returns once it is set, or at once when the waiting task
/// is cancelled. A waiter costs a dictionary entry, not a timer that wakes a thread to look
/// again, so one may wait in every request (`DatabaseHealth`, issue 15). It can be cleared again.
package final class AsyncFlag: Sendable {
    private struct State {
        package var isSet: Bool
        package var nextWaiter = 0
        package var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    private let state: Mutex<State>

    package init(isSet: Bool = false) {
        state = Mutex(State(isSet: isSet))
    }

    package var isSet: Bool { state.withLock { $0.isSet } }

    /// Sets or clears the flag; true when that changed it. Setting it wakes every waiter.
    @discardableResult
    package func set(_ value: Bool) -> Bool {
        let (changed, woken) = state.withLock { state in
            let changed = state.isSet != value
            state.isSet = value
            guard value else { return (changed, [CheckedContinuation<Void, Never>]()) }
            defer { state.waiters.removeAll() }
            return (changed, Array(state.waiters.values))
        }
        for waiter in woken { waiter.resume() }
        return changed
    }

    /// Returns once the flag is set, or at once if the task is cancelled (look at
    /// `Task.isCancelled` to tell which).
    package func wait() async {
        let id = state.withLock { state in
            state.nextWaiter &+= 1
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                // Cancelled before this ran (the handler found nothing to remove), or already
                // set: return at once. Both are judged under the lock the handler takes.
                let now = state.withLock { state in
                    guard !state.isSet, !Task.isCancelled else { return true }
                    state.waiters[id] = waiter
                    return false
                }
                if now { waiter.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }

    /// Tasks in ``wait()`` (for tests: none is left behind).
    package var waiterCount: Int { state.withLock { $0.waiters.count } }
}
