import Foundation
import QRReceipt
import Testing

@Suite("QR codes: size budget, modes, PNG, SVG")
struct QRCodeTests {
    /// A real token with the largest values every field can take (the length is fixed anyway).
    static let tokenText: String = {
        let signer = PickupTokenSigner(keyID: PickupKeyID(UInt16.max), privateKey: fixedPrivateKey(0x55))
        let claims = PickupToken.Claims(orderID: UUID(), storeNumber: .max, expiry: .max)
        return try! signer.sign(claims).text
    }()

    @Test("size budget: a real token is version <= 6 at ECC M and <= 8 at Q")
    func sizeBudget() throws {
        let medium = try QRCode.encode(Self.tokenText, level: .medium)
        let quartile = try QRCode.encode(Self.tokenText, level: .quartile)
        #expect(medium.version <= 6)
        #expect(quartile.version <= 8)
        // Measured (documented in the README): 6 at M, 8 at Q. Had it used byte mode, 141
        // characters would need version 8 at M: this also proves alphanumeric mode.
        #expect(medium.version == 6)
        #expect(quartile.version == 8)
        #expect(medium.level == .medium)
        #expect(try QRCode.encode(Self.tokenText).level == .medium)
    }

    @Test("symbol geometry: size is 17 + 4 * version and modules cover it", arguments: QRCode.ErrorCorrection.allCases)
    func geometry(level: QRCode.ErrorCorrection) throws {
        let code = try QRCode.encode(Self.tokenText, level: level)
        #expect(code.size == 17 + 4 * code.version)
        #expect(code.modules.count == code.size * code.size)
        // The top-left finder pattern: a dark 7x7 ring, a light ring, a dark 3x3 centre.
        #expect((0..<7).allSatisfy { code[x: $0, y: 0] && code[x: 0, y: $0] && code[x: $0, y: 6] && code[x: 6, y: $0] })
        #expect((1..<6).allSatisfy { !code[x: $0, y: 1] && !code[x: 1, y: $0] })
        #expect((2..<5).allSatisfy { x in (2..<5).allSatisfy { y in code[x: x, y: y] } })
        // Timing pattern on row 6 alternates.
        #expect((8..<(code.size - 8)).allSatisfy { code[x: $0, y: 6] == ($0 % 2 == 0) })
    }

    @Test("higher ECC levels never need a smaller version")
    func levelsOrdered() throws {
        let versions = try QRCode.ErrorCorrection.allCases.map { try QRCode.encode(Self.tokenText, level: $0).version }
        #expect(versions == versions.sorted())
    }

    @Test("text is never upper-cased: mixed case and UTF-8 survive a real decoder")
    func caseSensitive() throws {
        for text in ["hello World", "https://example.com/Orders?id=aBc", "Grüße, Ærøskøbing"] {
            let code = try QRCode.encode(text)
            #expect(try zbarDecode(png: code.png(scale: 4)) == text)
        }
    }

    @Test("encoding errors: empty, NUL, too long")
    func encodingErrors() {
        #expect(throws: QRCode.EncodingError.invalidInput) { try QRCode.encode("") }
        #expect(throws: QRCode.EncodingError.invalidInput) { try QRCode.encode("A\u{0}B") }
        #expect(throws: QRCode.EncodingError.tooLong) { try QRCode.encode(String(repeating: "A", count: 5000)) }
        #expect(throws: QRCode.EncodingError.tooLong) {
            try QRCode.encode(String(repeating: "a", count: 2400), level: .high)
        }
    }

    @Test(
        "PNG decodes with zbarimg at every ECC level and scales 2...10",
        arguments: QRCode.ErrorCorrection.allCases, 2...10)
    func pngDecodes(level: QRCode.ErrorCorrection, scale: Int) throws {
        let code = try QRCode.encode(Self.tokenText, level: level)
        let png = try code.png(scale: scale)
        let header = try #require(pngHeader(png))
        #expect(header.width == (code.size + 8) * scale)
        #expect(header.height == header.width)
        #expect(header.bitDepth == 1)
        #expect(header.colorType == 0)  // grayscale
        #expect(try zbarDecode(png: png) == Self.tokenText)
    }

    @Test("default PNG is scale 8 and decodes to a token that verifies")
    func defaultPNG() throws {
        let signer = PickupTokenSigner(keyID: PickupKeyID(1), privateKey: fixedPrivateKey(0x66))
        let verifier = PickupTokenVerifier(trustedKeys: [PickupKeyID(1): fixedPrivateKey(0x66).publicKey])
        let token = try signer.sign(sampleClaims())
        let code = try QRCode.encode(token.text)
        let png = try code.png()
        #expect(pngHeader(png)?.width == (code.size + 8) * 8)
        let scanned = try #require(try zbarDecode(png: png))
        #expect(try verifier.verify(scanned, now: beforeExpiry).claims == sampleClaims())
    }

    @Test("scale 1 (and 3): every pixel read back matches the symbol and the quiet zone is white", arguments: [1, 3])
    func pixelsMatchSymbol(scale: Int) throws {
        for level in QRCode.ErrorCorrection.allCases {
            let code = try QRCode.encode(Self.tokenText, level: level)
            let image = try #require(GrayImage(png: code.png(scale: scale)))
            let side = (code.size + 2 * QRCode.quietZone) * scale
            #expect(image.width == side && image.height == side)
            var mismatches = 0
            for py in 0..<side {
                for px in 0..<side {
                    let mx = px / scale - QRCode.quietZone
                    let my = py / scale - QRCode.quietZone
                    let inSymbol = (0..<code.size).contains(mx) && (0..<code.size).contains(my)
                    let dark = inSymbol && code[x: mx, y: my]
                    if image[x: px, y: py] != (dark ? 0 : 255) { mismatches += 1 }
                }
            }
            #expect(mismatches == 0, "level \(level)")
        }
    }

    @Test("PNG scale out of range is a typed error")
    func badScale() throws {
        let code = try QRCode.encode("HELLO")
        #expect(throws: QRCode.PNGError.invalidScale(0)) { try code.png(scale: 0) }
        #expect(throws: QRCode.PNGError.invalidScale(101)) { try code.png(scale: 101) }
    }

    @Test("the PNG reader used by these tests rejects corrupt input instead of crashing")
    func corruptPNG() throws {
        let png = try QRCode.encode("HELLO").png(scale: 2)
        #expect(GrayImage(png: png) != nil)
        #expect(GrayImage(png: Array(png.prefix(png.count / 2))) == nil)
        var flipped = png
        flipped[40] ^= 0xFF  // inside IDAT: CRC mismatch
        #expect(GrayImage(png: flipped) == nil)
        #expect(GrayImage(png: []) == nil)
    }

    @Test("SVG: one path whose rectangles are exactly the dark modules")
    func svg() throws {
        let code = try QRCode.encode(Self.tokenText)
        let svg = code.svg()
        let side = code.size + 8
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.contains("viewBox=\"0 0 \(side) \(side)\""))
        #expect(svg.contains("shape-rendering=\"crispEdges\""))
        #expect(svg.components(separatedBy: "<path").count == 2)

        // Paint the path's rectangles onto a grid and compare with the symbol.
        let d = try #require(svg.range(of: " d=\"").map { svg[$0.upperBound...].prefix { $0 != "\"" } })
        var grid = [Bool](repeating: false, count: side * side)
        for command in d.split(separator: "M") {
            // "x yhNv1h-Nz"
            let parts = command.split(whereSeparator: { " hvz".contains($0) })
            let x = try #require(Int(parts[0]))
            let y = try #require(Int(parts[1]))
            let run = try #require(Int(parts[2]))
            #expect(parts[3] == "1" && parts[4] == "-\(run)")
            for i in x..<(x + run) {
                #expect(!grid[y * side + i], "overlapping rectangles")
                grid[y * side + i] = true
            }
        }
        for y in 0..<side {
            for x in 0..<side {
                let inSymbol = (4..<(code.size + 4)).contains(x) && (4..<(code.size + 4)).contains(y)
                #expect(grid[y * side + x] == (inSymbol && code[x: x - 4, y: y - 4]))
            }
        }
    }
}
