import Crypto
import Foundation

/// The demo's product pictures (issue 45): a shop without pictures does not look like a grocer's,
/// and the demo ships no photographs, so each product gets a drawn one — its category's colour
/// and shape (a round fruit, a bottle, a tin, a loaf, a pack) on a light ground, as an indexed
/// PNG written here (stored deflate blocks: no compressor needed for a demo). Each picture's
/// text alternative says what it is.
package enum DemoPictures {
    package static let size = 128

    /// The picture of `product`, and its text alternative.
    package static func picture(for product: DemoProduct) -> (png: [UInt8], alt: String) {
        let (colour, shape) = style(product.category)
        var pixels = [UInt8](repeating: 0, count: size * size)
        let centre = Double(size) / 2
        for y in 0..<size {
            for x in 0..<size {
                let (dx, dy) = (Double(x) + 0.5 - centre, Double(y) + 0.5 - centre)
                let inside: Bool
                switch shape {
                case .round: inside = dx * dx + dy * dy < 44 * 44
                case .bottle: inside = (abs(dx) < 18 && dy > -52 && dy < 54) || (abs(dx) < 8 && dy > -60)
                case .tin: inside = abs(dx) < 38 && abs(dy) < 44
                case .loaf: inside = (abs(dx) < 50 && dy > -12 && dy < 30) || (dx * dx / 2500 + (dy + 12) * (dy + 12) / 900 < 1)
                case .pack: inside = abs(dx) < 40 && abs(dy) < 52
                }
                // A band across the middle, as a label.
                let label = inside && abs(dy) < 10 && shape != .round
                pixels[y * size + x] = label ? 2 : inside ? 1 : 0
            }
        }
        let palette: [UInt8] = [0xF4, 0xF6, 0xF8] + colour + [0xFF, 0xFF, 0xFF]
        return (png(pixels: pixels, palette: palette), "Drawing of \(product.name)")
    }

    private enum Shape { case round, bottle, tin, loaf, pack }

    private static func style(_ category: String) -> ([UInt8], Shape) {
        switch category {
        case "Produce": ([0x3C, 0x8D, 0x2F], .round)
        case "Bakery": ([0xB9, 0x77, 0x2E], .loaf)
        case "Beverages": ([0x1F, 0x6F, 0xB5], .bottle)
        case "Canned goods": ([0xA8, 0x32, 0x2D], .tin)
        case "Dairy": ([0xE8, 0xC5, 0x47], .pack)
        case "Meat", "Deli": ([0xC0, 0x39, 0x4B], .pack)
        case "Frozen": ([0x5B, 0xA4, 0xD6], .pack)
        case "Rice & grains": ([0xD8, 0xB4, 0x6A], .pack)
        case "Spices", "Condiments": ([0xD9, 0x5F, 0x1E], .bottle)
        default: ([0x6B, 0x5B, 0x95], .pack)
        }
    }

    /// An 8-bit indexed PNG of `pixels` (one palette index each, rows top to bottom).
    static func png(pixels: [UInt8], palette: [UInt8]) -> [UInt8] {
        var raw: [UInt8] = []
        raw.reserveCapacity(size * (size + 1))
        for row in 0..<size {
            raw.append(0)  // no filter
            raw.append(contentsOf: pixels[(row * size)..<((row + 1) * size)])
        }
        var header: [UInt8] = []
        header += bigEndian(UInt32(size)) + bigEndian(UInt32(size))
        header += [8, 3, 0, 0, 0]  // 8 bits, indexed, deflate, no filter method, no interlace
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("PLTE", palette)
            + chunk("IDAT", zlibStored(raw)) + chunk("IEND", [])
    }

    /// zlib's wrapping of `data` in stored (uncompressed) deflate blocks, with its Adler-32.
    private static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let length = min(65_535, data.count - offset)
            let last: UInt8 = offset + length >= data.count ? 1 : 0
            out.append(last)
            out += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)]
            out += data[offset..<(offset + length)]
            offset += length
        } while offset < data.count
        var (a, b): (UInt32, UInt32) = (1, 0)
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return out + bigEndian((b << 16) | a)
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (crc & 1 == 1 ? 0xEDB8_8320 : 0) }
        }
        return ~crc
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    /// The SHA-256 `product_images` keeps beside the bytes.
    static func sha256(_ bytes: [UInt8]) -> [UInt8] { Array(SHA256.hash(data: bytes)) }
}
