import Foundation
import Logging
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// The embedded cluster's `postgres.log` is kept within a bound (issue 42): past its size it is
/// copied aside and emptied in place, the server going on writing into it, and only a few copies
/// are kept.
@Suite("The database's log: rotated in place past its size, a bounded number of copies kept")
struct ServerLogRotationTests {
    @Test("a log past its size is copied to .1 and emptied; older copies shift, the oldest beyond the kept number is dropped")
    func rotation() throws {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("log-rotation-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = folder.appendingPathComponent("postgres.log")
        let logger = Logger(label: "test")
        // A writer holding the file open with O_APPEND, as pg_ctl's server does.
        let fd = open(log.path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        defer { close(fd) }
        func write(_ text: String) { _ = text.withCString { Foundation.write(fd, $0, strlen($0)) } }
        func size(_ url: URL) -> Int { ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int) ?? -1 }

        write(String(repeating: "small\n", count: 10))
        #expect(!ServerLogRotation.rotateIfLarge(log, maximumBytes: 1000, kept: 2, logger: logger))
        for round in 1...4 {
            write(String(repeating: "round \(round) line\n", count: 100))
            #expect(ServerLogRotation.rotateIfLarge(log, maximumBytes: 1000, kept: 2, logger: logger))
            #expect(size(log) == 0)
            // The server's next line lands at the start of the emptied file, not after a hole.
            write("after \(round)\n")
            #expect(try String(contentsOf: log, encoding: .utf8) == "after \(round)\n")
        }
        let newest = try String(contentsOf: URL(fileURLWithPath: log.path + ".1"), encoding: .utf8)
        #expect(newest.hasPrefix("after 3\nround 4 line"))
        #expect(try String(contentsOf: URL(fileURLWithPath: log.path + ".2"), encoding: .utf8).hasPrefix("after 2\nround 3 line"))
        #expect(!FileManager.default.fileExists(atPath: log.path + ".3"), "more copies kept than asked")
    }
}
