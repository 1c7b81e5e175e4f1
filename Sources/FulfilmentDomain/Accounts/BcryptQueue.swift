import Foundation

/// A bounded queue in front of bcrypt, shared by sign-in, registration and password changes.
///
/// A hash takes a good part of a second of CPU on purpose; without a bound, a flood of
/// registrations or guesses piles up work the process cannot finish and sign-in waits behind
/// it. At most `slots` hashes run at once and at most `waiting` more wait; anything beyond is
/// refused at once with `AccountError.busy` (429, `Retry-After: 1`) instead of queueing
/// forever. Sign-ins wait ahead of registrations and password changes, and these may fill
/// only half of the waiting places, so a registration flood cannot crowd sign-in out.
///
/// This bounds one process's CPU; it is not a correctness guarantee across instances.
public actor BcryptQueue {
    /// Whose hash it is: sign-in goes first.
    public enum Lane: Sendable { case signIn, other }

    public struct Limits: Sendable, Equatable {
        /// Hashes running at once (the cores bcrypt may take).
        public var slots: Int
        /// Hashes waiting for a slot before new ones are refused.
        public var waiting: Int

        public init(slots: Int, waiting: Int) {
            precondition(slots >= 1 && waiting >= 0, "the bcrypt queue needs a slot")
            self.slots = slots
            self.waiting = waiting
        }

        /// One slot per core, and eight waiting places per slot: at cost 12 the last in the
        /// queue waits about two seconds.
        public static var `default`: Limits {
            let cores = max(ProcessInfo.processInfo.activeProcessorCount, 1)
            return Limits(slots: cores, waiting: 8 * cores)
        }

        /// `FULFILMENT_BCRYPT_SLOTS` and `FULFILMENT_BCRYPT_WAITING` override the defaults.
        public static func from(environment: [String: String]) -> Limits {
            let fallback = Limits.default
            let slots = environment["FULFILMENT_BCRYPT_SLOTS"].flatMap { Int($0) }.flatMap { (1...256).contains($0) ? $0 : nil }
            let waiting = environment["FULFILMENT_BCRYPT_WAITING"].flatMap { Int($0) }.flatMap { (0...10_000).contains($0) ? $0 : nil }
            return Limits(slots: slots ?? fallback.slots, waiting: waiting ?? fallback.waiting)
        }
    }

    public let limits: Limits
    private var running = 0
    private var signInWaiting: [CheckedContinuation<Void, Never>] = []
    private var otherWaiting: [CheckedContinuation<Void, Never>] = []

    public init(limits: Limits = .default) {
        self.limits = limits
    }

    /// Runs `work` when a slot is free, or throws `AccountError.busy` at once when the queue is full.
    public func run<T: Sendable>(_ lane: Lane, _ work: @Sendable () async throws -> T) async throws -> T {
        try await acquire(lane)
        do {
            let result = try await work()
            release()
            return result
        } catch {
            release()
            throw error
        }
    }

    private func acquire(_ lane: Lane) async throws(AccountError) {
        if running < limits.slots {
            running += 1
            return
        }
        let queued = signInWaiting.count + otherWaiting.count
        switch lane {
        case .signIn:
            guard queued < limits.waiting else { throw .busy }
            await withCheckedContinuation { signInWaiting.append($0) }
        case .other:
            guard queued < limits.waiting, otherWaiting.count < (limits.waiting + 1) / 2 else { throw .busy }
            await withCheckedContinuation { otherWaiting.append($0) }
        }
        // The slot was handed over by `release`, which left `running` as it was.
    }

    private func release() {
        if !signInWaiting.isEmpty {
            signInWaiting.removeFirst().resume()
        } else if !otherWaiting.isEmpty {
            otherWaiting.removeFirst().resume()
        } else {
            running -= 1
        }
    }

    /// Hashes running and waiting now, for tests and diagnostics.
    package var load: (running: Int, waiting: Int) { (running, signInWaiting.count + otherWaiting.count) }
}
