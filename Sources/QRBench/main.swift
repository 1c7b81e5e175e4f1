// qr-bench: how fast pickup tokens are signed, verified and rendered as QR receipt PNGs,
// side by side with Python's segno making the same PNG from the same text.
//
//     swift run -c release qr-bench
//
// Prints figures only; it is not a test and asserts nothing.

import Crypto
import Foundation
import QRReceipt

/// Best-of-3 seconds per call of `body`, over `iterations` calls.
func measure(_ iterations: Int, _ body: () throws -> Void) rethrows -> Double {
    let clock = ContinuousClock()
    try body()  // warm-up
    var best = Double.infinity
    for _ in 0..<3 {
        let elapsed = try clock.measure {
            for _ in 0..<iterations { try body() }
        }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        best = min(best, seconds / Double(iterations))
    }
    return best
}

func rate(_ secondsPerOp: Double) -> String {
    String(format: "%10.0f/s  (%7.2f µs each)", 1 / secondsPerOp, secondsPerOp * 1e6)
}

/// The repository root, found from this file's path (Sources/QRBench/main.swift) or the working directory.
func scriptURL() -> URL? {
    let fromSource = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/segno-bench.py")
    let fromCwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        .appendingPathComponent("scripts/segno-bench.py")
    return [fromSource, fromCwd].first { FileManager.default.fileExists(atPath: $0.path) }
}

/// Runs `python3 args...`; returns (exit status, stdout).
func python(_ arguments: [String]) -> (Int32, String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3"] + arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.standardError
    do {
        try process.run()
    } catch {
        return (-1, "")
    }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

let keyring = try PickupKeyring(keys: [PickupSigningKey.generate(id: PickupKeyID(1))])
let signer = keyring.signer
let verifier = keyring.verifier
let claims = PickupToken.Claims(
    orderID: UUID(), storeNumber: 42, expiresAt: Date().addingTimeInterval(2 * 24 * 3600))
let token = try signer.sign(claims)
let text = token.text

print("qr-bench: pickup token \(PickupToken.length) bytes, text \(text.utf8.count) characters")
print("  text: \(text)")
for level in QRCode.ErrorCorrection.allCases {
    let code = try QRCode.encode(text, level: level)
    print("  ECC \(level.rawValue): version \(code.version), \(code.size) x \(code.size) modules")
}

let signSeconds = try measure(20_000) { _ = try signer.sign(claims) }
let verifySeconds = try measure(20_000) { _ = try verifier.verify(text) }
let encodeSeconds = try measure(5_000) { _ = try QRCode.encode(text) }
let code = try QRCode.encode(text)
let pngOnlySeconds = try measure(5_000) { _ = try code.png(scale: 8) }
let receiptSeconds = try measure(5_000) { _ = try QRCode.encode(text).png(scale: 8) }
let svgSeconds = measure(5_000) { _ = code.svg() }
let png = try code.png(scale: 8)

print("")
print("tokens signed:        \(rate(signSeconds))")
print("tokens verified:      \(rate(verifySeconds))")
print("QR encode (M):        \(rate(encodeSeconds))")
print("PNG write (scale 8):  \(rate(pngOnlySeconds))")
print("PNG receipts (QR+PNG):\(rate(receiptSeconds))")
print("SVG render:           \(rate(svgSeconds))")
print("PNG bytes at scale 8: \(png.count)  (\((code.size + 8) * 8) x \((code.size + 8) * 8) px, 1-bit gray)")
print("QR version (M):       \(code.version), \(code.size) modules per side")

// segno, side by side.
print("")
guard let script = scriptURL() else {
    print("segno: scripts/segno-bench.py not found; run from the repository root")
    exit(0)
}
if python(["-c", "import segno"]).0 != 0 {
    print("segno: not installed, running pip install segno ...")
    _ = python(["-m", "pip", "install", "--quiet", "segno"])
}
let (status, output) = python([script.path, text, "--error", "m", "--scale", "8", "--iterations", "300"])
guard status == 0, let json = try? JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any],
    let segnoSeconds = json["seconds_per_receipt"] as? Double, let segnoBytes = json["png_bytes"] as? Int
else {
    print("segno: could not run (status \(status)) \(output)")
    exit(0)
}
print("segno \(json["segno_version"] ?? "?") (Python), same text, ECC M, scale 8, border 4:")
print("  PNG receipts:       \(rate(segnoSeconds))")
print("  PNG bytes:          \(segnoBytes), version \(json["version"] ?? "?"), \(json["modules"] ?? "?") modules")
print(
    String(
        format: "ratio: QRReceipt is %.1fx faster than segno; PNG %d vs %d bytes (%.2fx)",
        segnoSeconds / receiptSeconds, png.count, segnoBytes, Double(png.count) / Double(segnoBytes)))
