import Foundation

/// The size an uploaded PNG or JPEG declares, read from its header (issue 41). Magic bytes alone
/// let a 20 KB PNG declaring 50,000 × 50,000 pixels through, to be served to every reader's
/// phone, which would try to decode 10 GB of pixels. Reading stops at the first size the file
/// declares; nothing is decompressed.
package struct ImageHeader: Equatable {
    package var width: Int
    package var height: Int

    /// No side longer than a print-quality product photograph needs.
    package static let maximumSide = 10_000
    /// 40 megapixels: 160 MB once decoded, the most a page should ever ask of a phone.
    package static let maximumPixels = 40_000_000

    package var isReasonable: Bool {
        (1...Self.maximumSide).contains(width) && (1...Self.maximumSide).contains(height) && width * height <= Self.maximumPixels
    }

    /// nil when the header is not where the format puts it (a truncated or forged file).
    package init?(_ data: Data, kind: ProductImage.Kind) {
        let bytes = [UInt8](data.prefix(64 * 1024))
        switch kind {
        case .png: self.init(png: bytes)
        case .jpeg: self.init(jpeg: bytes)
        }
    }

    package init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// PNG: the signature, then IHDR as the first chunk (length 13): width and height, 4 bytes
    /// each, big-endian.
    private init?(png bytes: [UInt8]) {
        guard bytes.count >= 24, Array(bytes[8..<16]) == [0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52] else { return nil }
        self.init(width: Self.bigEndian(bytes, 16, 4), height: Self.bigEndian(bytes, 20, 4))
    }

    /// JPEG: markers after SOI, each with a 2-byte length, until a start-of-frame (SOF0…SOF15
    /// but DHT, JPG and DAC), which holds precision, height and width.
    private init?(jpeg bytes: [UInt8]) {
        var index = 2
        while index + 4 <= bytes.count {
            guard bytes[index] == 0xFF else { return nil }
            let marker = bytes[index + 1]
            if marker == 0xFF {  // fill byte
                index += 1
                continue
            }
            if marker == 0x01 || (0xD0...0xD7).contains(marker) {  // standalone markers
                index += 2
                continue
            }
            let length = Self.bigEndian(bytes, index + 2, 2)
            guard length >= 2 else { return nil }
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard index + 9 <= bytes.count else { return nil }
                self.init(width: Self.bigEndian(bytes, index + 7, 2), height: Self.bigEndian(bytes, index + 5, 2))
                return
            }
            if marker == 0xDA || marker == 0xD9 { return nil }  // scan data or the end before any frame
            index += 2 + length
        }
        return nil
    }

    private static func bigEndian(_ bytes: [UInt8], _ start: Int, _ count: Int) -> Int {
        bytes[start..<start + count].reduce(0) { $0 << 8 | Int($1) }
    }
}
