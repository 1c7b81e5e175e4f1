import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file only its owner can read (mode 0600), created new and complete: what every secret the
/// service keeps on disk is written as (pickup signing keys, the data keys of secrets at rest).
public enum PrivateFile {
    /// A file could not be written: the system's error number and its reason.
    public struct Failure: Error, Sendable {
        public var path: String
        public var code: Int32
        public var message: String
    }

    /// Writes `bytes` to a new file at `url` with mode 0600, atomically; never replaces an
    /// existing file.
    ///
    /// The bytes go to a temporary file created with mode 0600 (and set to exactly 0600, so it is
    /// never readable by others whatever the umask), are flushed to disk, and the file is then
    /// hard-linked into place, which fails if the name is taken. The parent directory must exist.
    /// - Throws: ``Failure``, also when `url` already exists.
    public static func createNew(at url: URL, bytes: [UInt8]) throws(Failure) {
        let path = url.path
        let temporary = path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw failure(temporary) }
        defer { unlink(temporary) }
        var written = 0
        var failed: Failure?
        if fchmod(fd, 0o600) != 0 { failed = failure(temporary) }
        while failed == nil, written < bytes.count {
            let n = bytes[written...].withUnsafeBytes { posixWrite(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else {
                failed = failure(temporary)
                break
            }
            written += n
        }
        if failed == nil, fsync(fd) != 0 { failed = failure(temporary) }
        close(fd)
        if let failed { throw failed }
        guard link(temporary, path) == 0 else { throw failure(path) }
    }

    private static func failure(_ path: String) -> Failure {
        Failure(path: path, code: errno, message: String(cString: strerror(errno)))
    }
}

/// `write(2)`, reachable under a name no method shadows.
private func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(fd, buffer, count)
}
