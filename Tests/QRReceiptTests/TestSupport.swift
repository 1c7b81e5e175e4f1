import CPNGWriter
import Crypto
import Foundation
import QRReceipt
import TestSupport

/// A small, seeded, reproducible random generator (SplitMix64) for property-style tests.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: 0...255, using: &self) }
    }
}

/// A private key from fixed bytes, so tests are reproducible.
func fixedPrivateKey(_ fill: UInt8) -> Curve25519.Signing.PrivateKey {
    try! Curve25519.Signing.PrivateKey(rawRepresentation: [UInt8](repeating: fill, count: 32))
}

/// Claims for tests: a fixed order, store 7, expiring at `expiry`.
func sampleClaims(expiry: UInt32 = 2_000_000_000) -> PickupToken.Claims {
    PickupToken.Claims(
        orderID: UUID(uuidString: "0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0")!, storeNumber: 7, expiry: expiry)
}

/// A time well before ``sampleClaims()`` expires.
let beforeExpiry = Date(timeIntervalSince1970: 1_900_000_000)

/// Writes `png` to a temporary file and decodes it with zbarimg (Debian zbar-tools).
/// Returns the decoded text, or nil if zbarimg found no symbol.
func zbarDecode(png: [UInt8]) throws -> String? {
    try zbarDecode(file: png, extension: "png")
}

func zbarDecode(file contents: [UInt8], extension ext: String) throws -> String? {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("qrreceipt-test-\(UUID().uuidString).\(ext)")
    try Data(contents).write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }

    let decoded = try Subprocess.run("zbarimg", ["--raw", "-q", url.path]) as Subprocess.Outcome
    // zbarimg exits 4 when it found no symbol.
    guard decoded.status == 0 else { return nil }
    var text = decoded.output
    if text.hasSuffix("\n") { text.removeLast() }
    return text
}

/// An 8-bit grayscale image decoded from a PNG by libpng (through CPNGWriter's reader).
struct GrayImage {
    let width: Int
    let height: Int
    let pixels: [UInt8]

    init?(png: [UInt8]) {
        var pixels: UnsafeMutablePointer<UInt8>?
        var width: UInt32 = 0
        var height: UInt32 = 0
        let status = png.withUnsafeBufferPointer {
            cpng_read_gray8($0.baseAddress, $0.count, &pixels, &width, &height)
        }
        guard status == Int32(CPNG_OK.rawValue), let pixels else { return nil }
        defer { cpng_free(pixels) }
        self.width = Int(width)
        self.height = Int(height)
        self.pixels = Array(UnsafeBufferPointer(start: pixels, count: Int(width) * Int(height)))
    }

    subscript(x x: Int, y y: Int) -> UInt8 { pixels[y * width + x] }
}

/// IHDR fields straight from the PNG bytes (width, height, bit depth, colour type).
func pngHeader(_ png: [UInt8]) -> (width: Int, height: Int, bitDepth: UInt8, colorType: UInt8)? {
    guard png.count > 33, png[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
        Array(png[12..<16]) == Array("IHDR".utf8)
    else { return nil }
    func u32(_ o: Int) -> Int { Int(png[o]) << 24 | Int(png[o + 1]) << 16 | Int(png[o + 2]) << 8 | Int(png[o + 3]) }
    return (u32(16), u32(20), png[24], png[25])
}

/// A fresh temporary directory, removed by the caller.
func temporaryDirectory() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("qrreceipt-test-\(UUID().uuidString)")
}
