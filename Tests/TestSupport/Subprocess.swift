import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a program to completion for a test (zbarimg, Chromium, the `fulfilment` binary).
///
/// posix_spawn and waitpid rather than Foundation's `Process`: on Linux its `waitUntilExit`
/// can miss the exit when called from a Swift concurrency thread, and reading
/// `terminationStatus` then traps and takes the whole test run down with it. Output goes to
/// files, not pipes, so a child that leaves a grandchild holding them cannot hang the test.
public enum Subprocess {
    public struct Outcome: Sendable {
        /// The exit status, or 128 + the signal that ended it.
        public var status: Int32
        public var stdout: Data
        public var stderr: Data

        public var output: String { String(decoding: stdout, as: UTF8.self) }
        public var errors: String { String(decoding: stderr, as: UTF8.self) }
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Runs `executable` (a path, or a name looked up on `PATH`) with `arguments`; `environment`
    /// entries replace or add to this process's own (nil values remove one).
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String?] = [:]) throws -> Outcome {
        let path = executable.contains("/") ? executable : try lookUp(executable)
        let folder = FileManager.default.temporaryDirectory
        let outPath = folder.appendingPathComponent("subprocess-\(UUID().uuidString).out").path
        let errPath = folder.appendingPathComponent("subprocess-\(UUID().uuidString).err").path
        defer {
            unlink(outPath)
            unlink(errPath)
        }
        let pid = try start(path, arguments, environment: environment, stdout: outPath, stderr: errPath)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let signal = status & 0x7f
        return Outcome(
            status: signal == 0 ? (status >> 8) & 0xff : 128 + signal,
            stdout: FileManager.default.contents(atPath: outPath) ?? Data(),
            stderr: FileManager.default.contents(atPath: errPath) ?? Data())
    }

    /// The same, waiting on a thread of its own so no Swift concurrency thread blocks.
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String?] = [:]) async throws -> Outcome {
        try await Blocking.run { try run(executable, arguments, environment: environment) as Outcome }
    }

    /// Starts `path` with `arguments` and returns at once with its pid: stdin from /dev/null,
    /// stdout and stderr into the files named (the same file for both is fine). `environment`
    /// entries replace or add to this process's own (nil values remove one). The caller waits for
    /// it (`waitpid`) or stops it; `run` is this and a wait.
    public static func start(
        _ path: String, _ arguments: [String], environment: [String: String?] = [:], stdout: String, stderr: String
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        if stderr == stdout {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        }
        var variables = ProcessInfo.processInfo.environment
        for (name, value) in environment { variables[name] = value }
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        // The child starts with no signal blocked and every signal's default action: the test
        // process blocks or ignores some (its runtime's), and a child that inherited that could
        // not be stopped (pg_autoctl waits for ever for services that cannot hear SIGTERM).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid = pid_t()
        let spawned = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard spawned == 0 else { throw Failure(description: "\(path): \(String(cString: strerror(spawned)))") }
        return pid
    }

    static func lookUp(_ name: String) throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
            return "\(folder)/\(name)"
        }
        throw Failure(description: "\(name) is not on PATH")
    }
}
