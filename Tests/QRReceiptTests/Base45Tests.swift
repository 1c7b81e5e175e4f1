import QRReceipt
import Testing

@Suite("Base45 (RFC 9285)")
struct Base45Tests {
    @Test(
        "RFC 9285 encoding examples",
        arguments: [
            ("AB", "BB8"),
            ("Hello!!", "%69 VD92EX0"),
            ("base-45", "UJCLQE7W581"),
            ("ietf!", "QED8WEX0"),
        ])
    func rfcVectors(plain: String, encoded: String) throws {
        #expect(Base45.encode(Array(plain.utf8)) == encoded)
        #expect(try Base45.decode(encoded) == Array(plain.utf8))
    }

    @Test("RFC 9285 decoding example QED8WEX0 -> ietf!")
    func rfcDecode() throws {
        #expect(String(decoding: try Base45.decode("QED8WEX0"), as: UTF8.self) == "ietf!")
    }

    @Test("empty input")
    func empty() throws {
        #expect(Base45.encode([]) == "")
        #expect(try Base45.decode("") == [])
    }

    @Test("edge values: 0x0000, 0xFFFF and single bytes 0x00, 0xFF")
    func edges() throws {
        #expect(Base45.encode([0, 0]) == "000")
        #expect(Base45.encode([0xFF, 0xFF]) == "FGW")  // 65535 = 15 + 16*45 + 32*2025
        #expect(Base45.encode([0xFF]) == "U5")  // 255 = 30 + 5*45
        #expect(try Base45.decode("FGW") == [0xFF, 0xFF])
        #expect(try Base45.decode("U5") == [0xFF])
    }

    @Test("invalid inputs are rejected with the reason")
    func invalid() {
        // RFC 9285 section 4.3 examples of invalid input: "GGW" is 65536, too large for two bytes.
        #expect(throws: Base45.DecodingError.valueOutOfRange(offset: 0)) { try Base45.decode("GGW") }
        #expect(throws: Base45.DecodingError.valueOutOfRange(offset: 3)) { try Base45.decode("000:::") }
        // Two characters must encode at most 255.
        #expect(throws: Base45.DecodingError.valueOutOfRange(offset: 3)) { try Base45.decode("BB8:6") }
        // A lone trailing character.
        #expect(throws: Base45.DecodingError.invalidLength) { try Base45.decode("BB8B") }
        #expect(throws: Base45.DecodingError.invalidLength) { try Base45.decode("A") }
        // Characters outside the alphabet, including lower case.
        #expect(throws: Base45.DecodingError.invalidCharacter(offset: 1)) { try Base45.decode("Bb8") }
        #expect(throws: Base45.DecodingError.invalidCharacter(offset: 0)) { try Base45.decode("qed8wex0") }
        #expect(throws: Base45.DecodingError.invalidCharacter(offset: 2)) { try Base45.decode("BB=") }
        #expect(throws: Base45.DecodingError.invalidCharacter(offset: 3)) { try Base45.decode("BB8\n") }
        #expect(throws: Base45.DecodingError.invalidCharacter(offset: 0)) { try Base45.decode("é8") }
    }

    @Test("random byte strings round trip and stay in the alphabet (seeded, 2000 cases)")
    func randomRoundTrips() throws {
        var rng = SeededRandom(seed: 45)
        let alphabet = Set(Base45.alphabet.utf8)
        for _ in 0..<2000 {
            let bytes = rng.bytes(Int.random(in: 0...200, using: &rng))
            let text = Base45.encode(bytes)
            #expect(text.utf8.count == bytes.count / 2 * 3 + bytes.count % 2 * 2)
            #expect(text.utf8.allSatisfy(alphabet.contains))
            #expect(try Base45.decode(text) == bytes)
        }
    }

    @Test("random strings never crash the decoder (seeded, 5000 cases)")
    func randomGarbage() {
        var rng = SeededRandom(seed: 9285)
        let alphabet = Array(Base45.alphabet.utf8)
        for _ in 0..<5000 {
            let length = Int.random(in: 0...60, using: &rng)
            // Mostly alphabet characters, so the value-range checks are reached too.
            let utf8 = (0..<length).map { _ in
                Bool.random(using: &rng) || Bool.random(using: &rng)
                    ? alphabet.randomElement(using: &rng)! : UInt8.random(in: 0...127, using: &rng)
            }
            let text = String(decoding: utf8, as: UTF8.self)
            if let decoded = try? Base45.decode(text) {
                // Whatever decodes must encode back to the same text (one text form per byte string).
                #expect(Base45.encode(decoded) == text)
            }
        }
    }
}
