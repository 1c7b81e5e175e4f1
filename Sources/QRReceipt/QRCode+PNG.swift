import CPNGWriter

extension QRCode {
    /// Modules of white border around the symbol in renderings; the QR standard asks for 4.
    public static let quietZone = 4

    /// Why a PNG could not be written.
    public enum PNGError: Error, Sendable, Hashable {
        /// Scale outside 1...100.
        case invalidScale(Int)
        /// libpng failed (the C layer's status code).
        case libpng(status: Int32)
        /// Out of memory in the C layer.
        case outOfMemory
    }

    /// Renders the symbol as a 1-bit grayscale PNG with a 4-module quiet zone.
    ///
    /// Each module is `scale` x `scale` pixels, so the image is `(size + 8) * scale` pixels square.
    /// The default 8 suits a phone screen; zbar and most phone scanners need at least 2.
    /// - Throws: ``PNGError``.
    public func png(scale: Int = 8) throws(PNGError) -> [UInt8] {
        guard (1...100).contains(scale) else { throw .invalidScale(scale) }
        let modulesPerSide = size + 2 * Self.quietZone
        let width = modulesPerSide * scale
        let stride = (width + 7) / 8
        // 1 = white. Start all white, clear bits for dark modules, one pixel row per module row,
        // then repeat that row `scale` times.
        var pixels = [UInt8](repeating: 0xFF, count: stride * width)
        pixels.withUnsafeMutableBufferPointer { buffer in
            for y in 0..<size {
                let rowStart = (y + Self.quietZone) * scale * stride
                var x = 0
                while x < size {
                    if modules[y * size + x] {
                        let px0 = (x + Self.quietZone) * scale
                        for px in px0..<(px0 + scale) {
                            buffer[rowStart + (px >> 3)] &= ~(0x80 >> UInt8(px & 7))
                        }
                    }
                    x += 1
                }
                let base = buffer.baseAddress!
                for r in 1..<scale {
                    (base + rowStart + r * stride).update(from: base + rowStart, count: stride)
                }
            }
        }

        // zlib level 5: measured on a version 6 receipt at scale 8, levels 8-9 are 5-10x slower
        // (deflate's lazy matching crawls over the repeated rows) and give a slightly larger file.
        var out: UnsafeMutablePointer<UInt8>?
        var length = 0
        let status = pixels.withUnsafeBufferPointer {
            cpng_write_gray1($0.baseAddress, UInt32(width), UInt32(width), stride, 5, &out, &length)
        }
        guard status == Int32(CPNG_OK.rawValue), let out else {
            throw status == Int32(CPNG_ERR_NO_MEMORY.rawValue) ? .outOfMemory : .libpng(status: status)
        }
        defer { cpng_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: length))
    }
}
