import Foundation
import TestSupport
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// Issue 30: the systemd units kept in `deploy/` say what the binary and the README say. Every
/// `--flag` a unit's `ExecStart=` passes is one the real binary's `--help` documents, every
/// `Environment=` name is in the README's configuration table, and the folders it names are the
/// ones the hardening lets it write.
@Suite("deploy/: the systemd units match `fulfilment serve --help`, `backup --help` and the README")
struct DeployUnitTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let deploy = root.appendingPathComponent("deploy")

    /// A unit file's `Key=value` lines, by key, in order (comments and sections dropped).
    static func settings(_ name: String) throws -> [String: [String]] {
        let text = try String(contentsOf: deploy.appendingPathComponent(name), encoding: .utf8)
        var settings: [String: [String]] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") && !line.hasPrefix("[") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            settings[String(line[..<equals]), default: []].append(String(line[line.index(after: equals)...]))
        }
        return settings
    }

    /// `ExecStart=`'s words: the binary, the subcommand, then its arguments.
    static func command(_ unit: [String: [String]]) throws -> [String] {
        let lines = try #require(unit["ExecStart"])
        try #require(lines.count == 1, "one ExecStart= line: \(lines)")
        return lines[0].split(separator: " ").map(String.init)
    }

    /// The value after `flag` in `words`.
    static func value(of flag: String, in words: [String]) -> String? {
        words.firstIndex(of: flag).flatMap { words.indices.contains($0 + 1) ? words[$0 + 1] : nil }
    }

    @Test("every --flag of each ExecStart= is one the binary's --help for that command documents")
    func flagsExist() async throws {
        for (unitName, subcommand) in [("fulfilment.service", "serve"), ("fulfilment-backup.service", "backup")] {
            let words = try Self.command(try Self.settings(unitName))
            #expect(words[0] == "/usr/local/bin/fulfilment", "\(unitName): \(words)")
            #expect(words[1] == subcommand, "\(unitName): \(words)")
            let help = try await ServiceProcess.run([subcommand, "--help"])
            #expect(help.status == 0, "\(help.output)")
            for flag in words.dropFirst(2) where flag.hasPrefix("--") {
                #expect(help.output.contains(flag + " "), "\(unitName) passes \(flag), which `fulfilment \(subcommand) --help` does not document")
            }
        }
    }

    @Test("every Environment= name is in the README's configuration table")
    func environmentDocumented() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let table =
            readme.components(separatedBy: "## Configuration").dropFirst().first?
            .components(separatedBy: "\n### ").first?.split(separator: "\n").filter { $0.hasPrefix("|") } ?? []
        #expect(!table.isEmpty)
        for unitName in ["fulfilment.service", "fulfilment-backup.service"] {
            for assignment in try Self.settings(unitName)["Environment"] ?? [] {
                let name = String(assignment.split(separator: "=")[0])
                #expect(table.contains { $0.contains("`\(name)`") }, "\(unitName) sets \(name), which the README's table does not name")
            }
        }
    }

    @Test("a dedicated user, Restart=on-failure, the same data folder for both, and its folders writable under ProtectSystem=strict")
    func pathsAndHardening() throws {
        let service = try Self.settings("fulfilment.service")
        let backup = try Self.settings("fulfilment-backup.service")
        let timer = try Self.settings("fulfilment-backup.timer")
        let serve = try Self.command(service)
        let dump = try Self.command(backup)
        #expect(service["Restart"] == ["on-failure"])
        #expect(service["User"] == ["fulfilment"])
        #expect(backup["User"] == service["User"], "the backup must run as the user who owns the cluster's folder and password")
        #expect(timer["Unit"] == ["fulfilment-backup.service"])
        #expect(Self.value(of: "--data-dir", in: dump) == Self.value(of: "--data-dir", in: serve))
        for unit in [service, backup] {
            #expect(unit["NoNewPrivileges"] == ["yes"])
            #expect(unit["ProtectSystem"] == ["strict"])
            #expect(unit["PrivateTmp"] == ["yes"])
            let writable =
                (unit["ReadWritePaths"] ?? []).flatMap { $0.split(separator: " ").map(String.init) }
                + (unit["StateDirectory"] ?? []).map { "/var/lib/\($0)" }
            let folders = [
                Self.value(of: "--data-dir", in: serve), Self.value(of: "--keys-dir", in: serve), Self.value(of: "--to", in: dump),
            ].compactMap { $0 }
            #expect(folders.count == 3)
            for folder in folders {
                #expect(writable.contains { folder.hasPrefix($0 + "/") }, "\(folder) is not under a writable path: \(writable)")
            }
        }
    }

    @Test(
        "systemd-analyze verify accepts the units (with the built binary in place of /usr/local/bin/fulfilment)",
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze"),
            "systemd-analyze is not installed (Debian's systemd package); the other tests still check the units"))
    func systemdAccepts() async throws {
        let folder = URL(fileURLWithPath: "/tmp/fulfilment-units-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let names = ["fulfilment.service", "fulfilment-backup.service", "fulfilment-backup.timer"]
        for name in names {
            let text = try String(contentsOf: Self.deploy.appendingPathComponent(name), encoding: .utf8)
            try text.replacingOccurrences(of: "/usr/local/bin/fulfilment", with: ServiceProcess.binary)
                .write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let verified = try await Subprocess.run(
            "/usr/bin/systemd-analyze", ["verify"] + names.map { folder.appendingPathComponent($0).path },
            environment: ["SYSTEMD_LOG_LEVEL": "notice"])
        #expect(verified.status == 0, "\(verified.output)\(verified.errors)")
        #expect(verified.errors.isEmpty, "\(verified.errors)")
    }
}
