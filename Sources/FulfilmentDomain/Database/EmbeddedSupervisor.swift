import Foundation
import Logging
import Synchronization

/// Keeps the embedded cluster up while `fulfilment serve` runs on it (issue 30). When the
/// postmaster exits without being asked to (the OOM killer, a crash, `kill -9`), it is started
/// again, and PostgreSQL's crash recovery runs by itself on that start. Meanwhile requests get
/// `503 database_unavailable` from ``DatabaseHealth``, and the pool reconnects afterwards.
///
/// The postmaster is not this process's child (pg_ctl starts it and exits), so it is watched
/// through a pidfd: the kernel wakes the watching thread the moment the postmaster exits, with
/// no timer. Between tries it waits 1, 2, 4 … 30 s. A cluster that cannot start (the folder's
/// mode or owner, a damaged control file, its socket taken) is not tried for ever: after
/// ``Policy/tries`` tries in a row it logs why, in pg_ctl's and the server's own words, and stops
/// trying; `/readyz` then stays 503 and `/healthz` 200 until a person fixes it and restarts the
/// service. A cluster stopped on purpose (`pg_ctl stop`, `fulfilment postgres stop`) is left stopped.
public final class EmbeddedSupervisor: Sendable {
    public struct Policy: Sendable {
        public var firstDelay: Duration = .seconds(1)
        public var longestDelay: Duration = .seconds(30)
        /// Tries in a row, failed or soon ended, before giving up.
        public var tries = 5
        /// A server that ran this long had settled: its exit starts the count and the delays afresh.
        /// One that exits sooner after a restart counts as a failed try, so a crash loop ends too.
        public var settled: Duration = .seconds(60)
        /// While the data folder's disk is full, tries go on at this pace instead of stopping
        /// (issue 42): a full disk that made the server PANIC on a WAL write is fixed by freeing
        /// space, and the service comes back by itself then.
        public var fullDiskDelay: Duration = .seconds(30)

        public init() {}
    }

    private let embedded: EmbeddedPostgres
    private let durability: EmbeddedPostgres.Durability
    private let policy: Policy
    private let logger: Logger
    /// Written to by ``stop()``; the watching thread polls it beside the postmaster.
    private let stopPipe: (read: Int32, write: Int32)
    private let stopping = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    /// Starts watching the running cluster on a thread of its own.
    public static func start(
        _ embedded: EmbeddedPostgres, durability: EmbeddedPostgres.Durability = .durable, policy: Policy = Policy(),
        logger: Logger
    ) throws -> EmbeddedSupervisor {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw EmbeddedPostgres.Failure.commandFailed("pipe", output: String(cString: strerror(errno))) }
        let supervisor = EmbeddedSupervisor(embedded, durability, policy, logger, stopPipe: (fds[0], fds[1]))
        ServiceMetrics.embeddedPostgresRestarted(0)
        do {
            try BlockingCall.detach {
                supervisor.supervise()
                supervisor.finished.signal()
            }
        } catch {
            close(fds[0])
            close(fds[1])
            throw error
        }
        return supervisor
    }

    private init(
        _ embedded: EmbeddedPostgres, _ durability: EmbeddedPostgres.Durability, _ policy: Policy, _ logger: Logger,
        stopPipe: (read: Int32, write: Int32)
    ) {
        self.embedded = embedded
        self.durability = durability
        self.policy = policy
        self.logger = logger
        self.stopPipe = stopPipe
    }

    /// Stops watching (before the service stops the cluster itself), waiting for a start in
    /// progress to end. Call once.
    public func stop() {
        stopping.store(true, ordering: .sequentiallyConsistent)
        _ = write(stopPipe.write, [UInt8(1)], 1)
        finished.wait()
        close(stopPipe.read)
        close(stopPipe.write)
    }

    private func supervise() {
        var tries = 0  // since the server last settled
        var delay = policy.firstDelay
        var startedAt = ContinuousClock.now
        var lastReason = ""
        while let pid = embedded.postmasterPID {
            guard waitForExit(of: pid) else { return }
            if embedded.lastRunEndedOnRequest {
                logger.notice("embedded PostgreSQL (pid \(pid)) was shut down on request (pg_ctl stop or a signal): not restarting it")
                return
            }
            let ran = ContinuousClock.now - startedAt
            if ran >= policy.settled {
                tries = 0
                delay = policy.firstDelay
            } else if tries > 0 {
                lastReason = "it exited again \(Self.seconds(ran)) after it was restarted (see \(embedded.logFile.path))"
            }
            logger.error(
                "embedded PostgreSQL (pid \(pid)) exited after \(Self.seconds(ran)), not on request: starting it again in \(Self.seconds(delay))")
            var toldFull = false
            while true {
                let diskFull = tries >= policy.tries && Self.isFull(embedded.dataDirectory)
                if diskFull {
                    if !toldFull {
                        logger.critical(
                            "embedded PostgreSQL cannot run: the disk under \(embedded.dataDirectory.path) is full; trying again every \(Self.seconds(policy.fullDiskDelay)) until space is freed"
                        )
                        toldFull = true
                    }
                    delay = policy.fullDiskDelay
                }
                guard tries < policy.tries || diskFull else {
                    logger.critical(
                        """
                        embedded PostgreSQL could not be kept running (\(tries) tries in a row): no more tries; \
                        requests get 503 until it is fixed and the service restarted. Why: \(lastReason)
                        """)
                    return
                }
                guard pause(delay), awaitReaping(pid) else { return }
                tries += 1
                delay = min(delay * 2, policy.longestDelay)
                do {
                    try embedded.start(durability: durability)
                    startedAt = .now
                    ServiceMetrics.embeddedPostgresRestarted()
                    logger.notice(
                        "embedded PostgreSQL started again (try \(tries), pid \(embedded.postmasterPID.map(String.init) ?? "?")): crash recovery done, accepting connections"
                    )
                    break
                } catch {
                    lastReason = "\(error)".replacingOccurrences(of: "\n", with: "; ")
                    let next = tries < policy.tries ? "next try in \(Self.seconds(delay))" : "the last try"
                    // Waiting on a full disk was said once; each try of that wait is not.
                    if !toldFull { logger.error("embedded PostgreSQL did not start (try \(tries) of \(policy.tries), \(next)): \(lastReason)") }
                }
            }
        }
        logger.error("embedded PostgreSQL is not running (no postmaster.pid in \(embedded.clusterDirectory.path)): nothing to watch")
    }

    /// Blocks until the postmaster `pid` exits (true) or ``stop()`` is called (false).
    private func waitForExit(of pid: pid_t) -> Bool {
        var pidfd: Int32 = -1
        if let pidfdOpen = Self.pidfdOpen {
            pidfd = pidfdOpen(pid, 0)
            if pidfd < 0 && errno == ESRCH { return !isStopping }  // gone already
        }
        guard pidfd >= 0 else {
            // No pidfd (a kernel before 5.3 or an old C library): look once a second instead.
            while kill(pid, 0) == 0 || errno == EPERM {
                if !pause(.seconds(1)) { return false }
            }
            return !isStopping
        }
        defer { close(pidfd) }
        var fds = [pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0), pollfd(fd: stopPipe.read, events: Int16(POLLIN), revents: 0)]
        // Woken once a minute besides, to keep the server's log within its bound.
        while true {
            let ready = poll(&fds, 2, 60_000)
            if ready < 0 && errno == EINTR { continue }
            if ready == 0 {
                ServerLogRotation.rotateIfLarge(embedded.logFile, logger: logger)
                continue
            }
            return !isStopping
        }
    }

    /// Whether the filesystem under `folder` has too little left for PostgreSQL to start (less
    /// than a WAL segment and a little).
    package static func isFull(_ folder: URL) -> Bool {
        guard let space = DiskSpace.of(folder) else { return false }
        return space.available < 64 << 20
    }

    /// Waits `duration`; false when ``stop()`` was called meanwhile.
    private func pause(_ duration: Duration) -> Bool {
        let deadline = ContinuousClock.now + duration
        while !isStopping, ContinuousClock.now < deadline {
            var fd = pollfd(fd: stopPipe.read, events: Int16(POLLIN), revents: 0)
            let left = deadline - ContinuousClock.now
            _ = poll(&fd, 1, Int32(max(1, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)))
        }
        return !isStopping
    }

    /// An exited process stays a zombie until its parent (init, or whoever adopted it) reaps it,
    /// and until then PostgreSQL takes it for a postmaster still running ("lock file
    /// postmaster.pid already exists"). Gives the reaper up to five seconds; false on ``stop()``.
    private func awaitReaping(_ pid: pid_t) -> Bool {
        for _ in 0..<50 where kill(pid, 0) == 0 {
            if !pause(.milliseconds(100)) { return false }
        }
        return !isStopping
    }

    private var isStopping: Bool { stopping.load(ordering: .sequentiallyConsistent) }

    private static func seconds(_ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return seconds < 10 ? String(format: "%.1f s", seconds) : "\(Int(seconds)) s"
    }

    /// glibc's `pidfd_open` (2.36 and later), looked up at run time: Swift's Glibc module does not
    /// export it, and the `syscall` function it wraps is variadic, which Swift cannot call.
    private static let pidfdOpen: (@convention(c) (pid_t, UInt32) -> Int32)? = {
        guard let symbol = dlsym(nil, "pidfd_open") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (pid_t, UInt32) -> Int32).self)
    }()
}
