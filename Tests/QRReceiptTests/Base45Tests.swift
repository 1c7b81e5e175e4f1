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

    @Test("random strings never crash the decoder, and each is decoded to its one text form or refused for a real fault (seeded, 5000 cases)")
    func randomGarbage() {
        var rng = SeededRandom(seed: 9285)
        let alphabet = Array(Base45.alphabet.utf8)
        var (decoded, refused) = (0, 0)
        for _ in 0..<5000 {
            let length = Int.random(in: 0...60, using: &rng)
            // Mostly alphabet characters, so the value-range checks are reached too.
            let utf8 = (0..<length).map { _ in
                Bool.random(using: &rng) || Bool.random(using: &rng)
                    ? alphabet.randomElement(using: &rng)! : UInt8.random(in: 0...127, using: &rng)
            }
            let text = String(decoding: utf8, as: UTF8.self)
            let verdict: String
            do throws(Base45.DecodingError) {
                // Whatever decodes must encode back to the same text (one text form per byte string).
                verdict = Base45.encode(try Base45.decode(text)) == text ? "ok" : "decoded to another text form"
                decoded += 1
            } catch {
                verdict = Self.fault(error, in: Array(text.utf8), alphabet: alphabet)
                refused += 1
            }
            #expect(verdict == "ok", "\(text.debugDescription)")
        }
        // Both outcomes were reached often, so neither branch's check is vacuous.
        #expect(decoded >= 100 && refused >= 100, "decoded \(decoded), refused \(refused)")
    }

    /// "ok" when `error` names a real fault of `utf8`: a character outside the alphabet at its
    /// offset, a length that leaves one character over, or a group at its offset whose value does
    /// not fit its bytes.
    static func fault(_ error: Base45.DecodingError, in utf8: [UInt8], alphabet: [UInt8]) -> String {
        func value(_ group: ArraySlice<UInt8>) -> Int? {
            var (n, weight) = (0, 1)
            for byte in group {
                guard let digit = alphabet.firstIndex(of: byte) else { return nil }
                n += digit * weight
                weight *= 45
            }
            return n
        }
        switch error {
        case .invalidCharacter(let offset):
            return offset < utf8.count && !alphabet.contains(utf8[offset]) ? "ok" : "no bad character at \(offset)"
        case .invalidLength:
            return utf8.count % 3 == 1 && utf8.allSatisfy(alphabet.contains) ? "ok" : "length \(utf8.count) is not invalid"
        case .valueOutOfRange(let offset):
            let group = utf8[offset..<min(offset + 3, utf8.count)]
            guard offset % 3 == 0, let n = value(group) else { return "no group at \(offset)" }
            return n > (group.count == 3 ? 0xFFFF : 0xFF) ? "ok" : "group at \(offset) is in range"
        }
    }
}
