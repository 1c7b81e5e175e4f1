import Foundation
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Holds work until opened, so a test decides when a "hash" finishes.
private actor Gate {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private(set) var inside = 0
    private(set) var mostInside = 0
    private(set) var finished: [String] = []

    func pass(_ name: String) async {
        inside += 1
        mostInside = max(mostInside, inside)
        if !isOpen { await withCheckedContinuation { waiters.append($0) } }
        inside -= 1
        finished.append(name)
    }

    func open() {
        isOpen = true
        for waiter in waiters { waiter.resume() }
        waiters.removeAll()
    }
}

/// Waits (briefly, a few milliseconds at a time) until the queue holds what a test expects.
private func until(_ queue: BcryptQueue, running: Int, waiting: Int) async throws {
    for _ in 0..<2_000 {
        let load = await queue.load
        if load.running == running && load.waiting == waiting { return }
        try await Task.sleep(for: .milliseconds(5))
    }
    throw TestSetupError("the queue never reached \(running) running, \(waiting) waiting")
}

@Suite("The bcrypt queue is bounded and refuses at once when full")
struct BcryptQueueTests {
    @Test("at most `slots` hashes run at once, `waiting` more wait, and the next is refused at once")
    func bounded() async throws {
        let queue = BcryptQueue(limits: .init(slots: 2, waiting: 2))
        let gate = Gate()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<4 {
                group.addTask { try await queue.run(.signIn) { await gate.pass("hash \(index)") } }
            }
            try await until(queue, running: 2, waiting: 2)
            await #expect(throws: AccountError.busy) { try await queue.run(.signIn) { await gate.pass("one too many") } }
            await gate.open()
            try await group.waitForAll()
        }
        #expect(await gate.mostInside == 2)
        #expect(await gate.finished.count == 4)
        let load = await queue.load
        #expect(load.running == 0 && load.waiting == 0)
        // Free again: the next hash runs.
        #expect(try await queue.run(.signIn) { 42 } == 42)
    }

    @Test("sign-ins wait ahead of registrations, which may fill only half the waiting places")
    func signInFirst() async throws {
        let queue = BcryptQueue(limits: .init(slots: 1, waiting: 2))
        let gate = Gate()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await queue.run(.signIn) { await gate.pass("running") } }
            try await until(queue, running: 1, waiting: 0)
            group.addTask { try await queue.run(.other) { await gate.pass("registration") } }
            try await until(queue, running: 1, waiting: 1)
            await #expect(throws: AccountError.busy) { try await queue.run(.other) { await gate.pass("second registration") } }
            group.addTask { try await queue.run(.signIn) { await gate.pass("sign-in") } }
            try await until(queue, running: 1, waiting: 2)
            await gate.open()
            try await group.waitForAll()
        }
        #expect(await gate.finished == ["running", "sign-in", "registration"])
    }

    @Test("a failing hash gives its slot back")
    func failureReleases() async throws {
        let queue = BcryptQueue(limits: .init(slots: 1, waiting: 0))
        await #expect(throws: TestSetupError.self) { try await queue.run(.signIn) { throw TestSetupError("boom") } }
        #expect(try await queue.run(.signIn) { "free" } == "free")
    }

    @Test("when every slot and waiting place is taken, sign-in answers 429 busy at once with Retry-After")
    func busyOverHTTP() async throws {
        // One slot, no waiting place, and a hash slow enough that the racers overlap.
        try await withApp(configure: {
            $0.bcryptCost = 10
            $0.bcryptQueue = .init(slots: 1, waiting: 0)
        }) { app in
            // Eight different accounts, so no sign-in limit gets in the way.
            let racers = (0..<8).map { SeparateConnections.Request.login("rush\($0)@example.com", "wrong password") }
            let replies = try await SeparateConnections.race(racers, port: try app.livePort)
            let busy = replies.filter { $0.errorCode == "busy" }
            let checked = replies.filter { $0.status == .unauthorized }
            #expect(busy.count >= 1)
            #expect(checked.count >= 1)
            let codes = replies.map { "\($0.status.code) \($0.errorCode ?? "")" }
            let retryInASecond = busy.allSatisfy { $0.status == .tooManyRequests && $0.headers[.retryAfter] == "1" }
            #expect(busy.count + checked.count == 8, "\(codes)")
            #expect(retryInASecond)
            // A refused attempt was never tried, so it does not count toward the lock-out.
            let counted = try await sql(
                "SELECT failures, pending FROM login_throttle WHERE email_key = '' AND address = '127.0.0.1'", on: app.database)
            #expect(counted == [[String(checked.count), "0"]])
        }
    }

    @Test("a flood of registrations is refused with 429 busy rather than queued")
    func registrationsShareTheQueue() async throws {
        try await withApp(configure: {
            $0.bcryptCost = 10
            $0.bcryptQueue = .init(slots: 1, waiting: 0)
        }) { app in
            let racers = (0..<6).map { index in
                SeparateConnections.Request(
                    path: "/v1/auth/register",
                    json: [
                        "email": .string("flood\(index)@example.com"), "name": "Flood", "password": "long enough",
                        "passwordConfirmation": "long enough",
                    ])
            }
            let replies = try await SeparateConnections.race(racers, port: try app.livePort)
            let created = replies.filter { $0.status == .created }.count
            let busy = replies.filter { $0.errorCode == "busy" }.count
            let codes = replies.map { "\($0.status.code) \($0.errorCode ?? "")" }
            #expect(busy >= 1, "\(codes)")
            #expect(busy + created == 6)
            #expect(created >= 1)
            #expect(try await sql("SELECT count(*) FROM users", on: app.database)[0][0] == String(created))
        }
    }
}
