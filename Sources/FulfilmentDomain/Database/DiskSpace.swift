import Foundation
import Logging

/// How full the filesystem under a folder is, as `statvfs` reports it, so `serve` can warn at
/// start-up before the embedded cluster's disk fills (then every checkout is `503 storage_full`).
public struct DiskSpace: Sendable, Equatable {
    /// Bytes of the filesystem in all.
    public var total: UInt64
    /// Bytes an unprivileged process (the cluster's server user) may still write: `f_bavail`,
    /// not `f_bfree`, which counts the blocks reserved for root.
    public var available: UInt64
    /// Bytes not yet used, reserved ones included (`f_bfree`).
    public var free: UInt64

    /// Above this share of the filesystem in use, start-up warns.
    public static let warningThreshold = 0.90

    public init(total: UInt64, available: UInt64, free: UInt64) {
        self.total = total
        self.available = available
        self.free = free
    }

    /// From `statvfs`'s block counts: sizes are in `f_frsize` units.
    public init(blockSize: UInt64, blocks: UInt64, freeBlocks: UInt64, availableBlocks: UInt64) {
        self.init(total: blocks * blockSize, available: availableBlocks * blockSize, free: freeBlocks * blockSize)
    }

    /// The share in use as `df` counts it: used over what users can have (used + available),
    /// so a disk whose last blocks are reserved for root reads 100 % when the server can write no more.
    public var usedFraction: Double {
        let used = total - min(free, total)
        let usable = used + available
        return usable == 0 ? 1 : Double(used) / Double(usable)
    }

    public var isNearlyFull: Bool { usedFraction > Self.warningThreshold }

    /// The filesystem holding `folder`, or its nearest existing parent (a data folder not made yet).
    public static func of(_ folder: URL) -> DiskSpace? {
        var path = folder.standardizedFileURL.path
        while !FileManager.default.fileExists(atPath: path), path != "/" {
            path = (path as NSString).deletingLastPathComponent
        }
        var stats = statvfs()
        guard statvfs(path, &stats) == 0 else { return nil }
        return DiskSpace(
            blockSize: UInt64(stats.f_frsize), blocks: UInt64(stats.f_blocks), freeBlocks: UInt64(stats.f_bfree),
            availableBlocks: UInt64(stats.f_bavail))
    }

    /// Logs a warning when the filesystem of the embedded cluster's `folder` is over 90 % full,
    /// naming the folder, what is free and what to do. Returns the measure when it warned.
    @discardableResult
    public static func warnIfNearlyFull(_ folder: URL, logger: Logger) -> DiskSpace? {
        guard let space = of(folder), space.isNearlyFull else { return nil }
        logger.warning(
            "the database's disk is nearly full: free space before checkouts fail with 503 storage_full",
            metadata: [
                "dir": "\(folder.path)", "used": "\(Int((space.usedFraction * 100).rounded(.down))) %",
                "free": "\(space.available / 1_048_576) MiB",
                "do": "delete old backups or logs on that disk, or move the data folder (--data-dir) to a larger one",
            ])
        return space
    }
}
