import Foundation
import Logging

/// Keeps the embedded cluster's `postgres.log` within a bound (issue 42): it grew without end.
/// pg_ctl's server writes it with `O_APPEND`, so the file can be copied and truncated in place
/// (copytruncate): the server's next line lands at the start of the emptied file, no restart
/// and no signal. At most `kept` older copies are kept (`postgres.log.1` the newest), so the
/// whole takes at most `(kept + 1) × maximumBytes` plus what is written between two looks.
package enum ServerLogRotation {
    package static let maximumBytes: UInt64 = 16 << 20
    package static let kept = 3

    /// Rotates `log` when it is larger than `maximumBytes`; true when it did.
    @discardableResult
    package static func rotateIfLarge(_ log: URL, maximumBytes: UInt64 = maximumBytes, kept: Int = kept, logger: Logger) -> Bool {
        let fm = FileManager.default
        guard let size = (try? fm.attributesOfItem(atPath: log.path))?[.size] as? UInt64, size > maximumBytes else { return false }
        func old(_ n: Int) -> URL { URL(fileURLWithPath: log.path + ".\(n)") }
        try? fm.removeItem(at: old(kept))
        for n in stride(from: kept - 1, through: 1, by: -1) where fm.fileExists(atPath: old(n).path) {
            try? fm.moveItem(at: old(n), to: old(n + 1))
        }
        do {
            try fm.copyItem(at: log, to: old(1))
            let handle = try FileHandle(forWritingTo: log)
            defer { try? handle.close() }
            try handle.truncate(atOffset: 0)
        } catch {
            logger.warning("could not rotate the database's log", metadata: ["file": "\(log.path)", "error": "\(error)"])
            return false
        }
        // The copy is the server user's to read, like the log itself.
        if let attributes = try? fm.attributesOfItem(atPath: log.path) {
            try? fm.setAttributes(
                [.ownerAccountID: attributes[.ownerAccountID] as Any, .posixPermissions: attributes[.posixPermissions] as Any].compactMapValues {
                    $0
                },
                ofItemAtPath: old(1).path)
        }
        logger.notice("rotated the database's log", metadata: ["file": "\(log.path)", "bytes": "\(size)"])
        return true
    }
}
