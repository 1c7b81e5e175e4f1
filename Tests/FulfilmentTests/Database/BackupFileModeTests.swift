import Foundation
import TestSupport
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// A backup holds every password hash and the whole shop: only its owner may read it (issue 24).
@Suite("Backups: the file is its owner's alone")
struct BackupFileModeTests {
    @Test("fulfilment backup writes its file 0600 whatever the umask (000 or 277)", arguments: ["000", "277"])
    func backupIsPrivate(umask: String) async throws {
        try await withTestDatabase { database in
            let file = URL(fileURLWithPath: "/tmp/fulfilment-backup-mode-\(UInt32.random(in: 0...UInt32.max)).dump")
            defer { try? FileManager.default.removeItem(at: file) }
            let ran = try await Subprocess.run(
                "/bin/sh",
                [
                    "-c", "umask \(umask); exec \"$0\" backup --to \"$1\" --database-url \"$2\"", ServiceProcess.binary, file.path,
                    Backup.conninfo(database),
                ],
                environment: ["PGPASSWORD": database.password])
            #expect(ran.status == 0, "\(ran.output) \(ran.errors)")
            let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
            #expect((attributes[.posixPermissions] as! NSNumber).intValue & 0o777 == 0o600)
            #expect((attributes[.size] as! NSNumber).intValue > 0)
        }
    }
}
