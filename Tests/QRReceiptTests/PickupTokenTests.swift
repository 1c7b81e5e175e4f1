import Crypto
import Foundation
import QRReceipt
import Testing

@Suite("Pickup tokens: layout, signing, verification")
struct PickupTokenTests {
    let signer = PickupTokenSigner(keyID: PickupKeyID(1), privateKey: fixedPrivateKey(0x11))
    var verifier: PickupTokenVerifier {
        PickupTokenVerifier(trustedKeys: [PickupKeyID(1): fixedPrivateKey(0x11).publicKey])
    }

    @Test("binary layout is byte for byte as documented")
    func layout() throws {
        let claims = PickupToken.Claims(
            orderID: UUID(uuidString: "00112233-4455-6677-8899-AABBCCDDEEFF")!, storeNumber: 0x0102_0304,
            expiry: 0xA0B0_C0D0)
        let signer = PickupTokenSigner(keyID: PickupKeyID(0x0A0B), privateKey: fixedPrivateKey(0x22))
        let token = try signer.sign(claims)
        let bytes = token.bytes
        #expect(bytes.count == 91)
        #expect(bytes[0] == 0x01)
        #expect(Array(bytes[1..<3]) == [0x0A, 0x0B])
        #expect(
            Array(bytes[3..<19]) == [
                0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF,
            ])
        #expect(Array(bytes[19..<23]) == [0x01, 0x02, 0x03, 0x04])
        #expect(Array(bytes[23..<27]) == [0xA0, 0xB0, 0xC0, 0xD0])
        #expect(Array(bytes[27...]) == token.signature)

        // The signature is plain Ed25519 over "fulfilment pickup token\0" + bytes 0..<27,
        // checked here with Crypto directly, as an independent scanner would.
        let message = Array("fulfilment pickup token".utf8) + [0] + Array(bytes[..<27])
        #expect(fixedPrivateKey(0x22).publicKey.isValidSignature(token.signature, for: message))
        #expect(!fixedPrivateKey(0x22).publicKey.isValidSignature(token.signature, for: Array(bytes[..<27])))

        // Text form: prefix + Base45 of the bytes, 141 characters.
        #expect(token.text == "FC1:" + Base45.encode(bytes))
        #expect(token.text.utf8.count == 141)
        #expect(try PickupToken(text: token.text) == token)
        #expect(try PickupToken(bytes: bytes) == token)
    }

    @Test("sign then verify returns the claims")
    func roundTrip() throws {
        let token = try signer.sign(sampleClaims())
        let verified = try verifier.verify(token.text, now: beforeExpiry)
        #expect(verified.claims == sampleClaims())
        #expect(verified.keyID == PickupKeyID(1))
        #expect(verified.version == 1)
        #expect(try verifier.verify(bytes: token.bytes, now: beforeExpiry) == token)
    }

    @Test("claims from a Date round down to seconds and clamp into UInt32")
    func claimsFromDate() {
        let id = UUID()
        #expect(
            PickupToken.Claims(orderID: id, storeNumber: 1, expiresAt: Date(timeIntervalSince1970: 1_700_000_000.9))
                .expiry == 1_700_000_000)
        #expect(PickupToken.Claims(orderID: id, storeNumber: 1, expiresAt: Date(timeIntervalSince1970: -5)).expiry == 0)
        #expect(PickupToken.Claims(orderID: id, storeNumber: 1, expiresAt: .distantFuture).expiry == UInt32.max)
    }

    @Test("expiry boundary: valid just before, expired at and after")
    func expiryBoundary() throws {
        let expiry: UInt32 = 1_750_000_000
        let text = try signer.sign(sampleClaims(expiry: expiry)).text
        let at = Date(timeIntervalSince1970: TimeInterval(expiry))
        #expect(try verifier.verify(text, now: at.addingTimeInterval(-1)).claims.expiry == expiry)
        #expect(try verifier.verify(text, now: at.addingTimeInterval(-0.001)).claims.expiry == expiry)
        #expect(throws: PickupTokenError.expired(at: at)) { try verifier.verify(text, now: at) }
        #expect(throws: PickupTokenError.expired(at: at)) { try verifier.verify(text, now: at.addingTimeInterval(1)) }
    }

    @Test("a key id the verifier does not trust is reported as unknown")
    func unknownKeyID() throws {
        let other = PickupTokenSigner(keyID: PickupKeyID(2), privateKey: fixedPrivateKey(0x33))
        let text = try other.sign(sampleClaims()).text
        #expect(throws: PickupTokenError.unknownKeyID(PickupKeyID(2))) { try verifier.verify(text, now: beforeExpiry) }
    }

    @Test("a token signed by another key under a trusted id is a bad signature")
    func forgedUnderTrustedID() throws {
        let forger = PickupTokenSigner(keyID: PickupKeyID(1), privateKey: fixedPrivateKey(0x44))
        let text = try forger.sign(sampleClaims()).text
        #expect(throws: PickupTokenError.badSignature) { try verifier.verify(text, now: beforeExpiry) }
    }

    @Test("an expired forgery is a bad signature, not expired (expiry is judged only on genuine tokens)")
    func expiredForgery() throws {
        let forger = PickupTokenSigner(keyID: PickupKeyID(1), privateKey: fixedPrivateKey(0x44))
        let text = try forger.sign(sampleClaims(expiry: 10)).text
        #expect(throws: PickupTokenError.badSignature) { try verifier.verify(text, now: beforeExpiry) }
    }

    @Test("an unsupported format version is reported as such")
    func unsupportedVersion() throws {
        // Versions 1 (a receipt) and 2 (a collector pass, CollectorPassTests) are read; 3 is not.
        var bytes = try signer.sign(sampleClaims()).bytes
        bytes[0] = 3
        #expect(throws: PickupTokenError.unsupportedVersion(3)) { try verifier.verify(bytes: bytes, now: beforeExpiry) }
        #expect(throws: PickupTokenError.unsupportedVersion(3)) {
            try verifier.verify("FC1:" + Base45.encode(bytes), now: beforeExpiry)
        }
        bytes[0] = 0
        #expect(throws: PickupTokenError.unsupportedVersion(0)) { try verifier.verify(bytes: bytes, now: beforeExpiry) }
    }

    @Test("flipping any single bit of the binary token fails verification with the right error")
    func everyBitFlip() throws {
        let bytes = try signer.sign(sampleClaims()).bytes
        #expect(try verifier.verify(bytes: bytes, now: beforeExpiry).claims == sampleClaims())
        for index in bytes.indices {
            for bit in 0..<8 {
                var tampered = bytes
                tampered[index] ^= 1 << bit
                let expected: PickupTokenError =
                    switch index {
                    case 0: .unsupportedVersion(tampered[0])
                    case 1, 2: .unknownKeyID(PickupKeyID(UInt16(tampered[1]) << 8 | UInt16(tampered[2])))
                    default: .badSignature
                    }
                #expect(throws: expected, "byte \(index) bit \(bit)") {
                    try verifier.verify(bytes: tampered, now: beforeExpiry)
                }
            }
        }
    }

    @Test("changing any character of the text to any other fails verification")
    func everyCharacterChange() throws {
        let text = try signer.sign(sampleClaims()).text
        let original = Array(text.utf8)
        let replacements = Array((Base45.alphabet + "abcz=_#\u{7F}").utf8)
        var checked = 0
        for index in original.indices {
            for replacement in replacements where replacement != original[index] {
                var changed = original
                changed[index] = replacement
                let changedText = String(decoding: changed, as: UTF8.self)
                #expect(throws: PickupTokenError.self, "position \(index) -> \(UnicodeScalar(replacement))") {
                    try verifier.verify(changedText, now: beforeExpiry)
                }
                checked += 1
            }
        }
        #expect(checked > 141 * 44)
    }

    @Test("truncated text at every length gives a typed error")
    func truncated() throws {
        let text = try signer.sign(sampleClaims()).text
        for length in 0..<text.utf8.count {
            let prefix = String(decoding: Array(text.utf8.prefix(length)), as: UTF8.self)
            let error = #expect(throws: PickupTokenError.self) { try verifier.verify(prefix, now: beforeExpiry) }
            switch length {
            case 0..<4: #expect(error == .malformed(.missingPrefix))
            case 4: #expect(error == .malformed(.empty))
            default:
                guard case .malformed = error else {
                    Issue.record("length \(length): \(String(describing: error))")
                    continue
                }
            }
        }
        let bytes = try signer.sign(sampleClaims()).bytes
        for length in 1..<bytes.count {
            #expect(throws: PickupTokenError.malformed(.wrongLength(length))) {
                try verifier.verify(bytes: bytes.prefix(length), now: beforeExpiry)
            }
        }
        #expect(throws: PickupTokenError.malformed(.empty)) { try verifier.verify(bytes: [], now: beforeExpiry) }
    }

    @Test("over-long input gives a typed error")
    func overLong() throws {
        let token = try signer.sign(sampleClaims())
        for extra in 1...6 {
            let bytes = token.bytes + [UInt8](repeating: 0, count: extra)
            #expect(throws: PickupTokenError.malformed(.wrongLength(91 + extra))) {
                try verifier.verify(bytes: bytes, now: beforeExpiry)
            }
            let text = token.text + String(repeating: "0", count: extra)
            #expect(throws: PickupTokenError.self) { try verifier.verify(text, now: beforeExpiry) }
        }
        // 137 Base45 characters + 1 = 46 full groups = 92 bytes; + 2 leaves a lone character.
        #expect(throws: PickupTokenError.malformed(.wrongLength(92))) {
            try verifier.verify(token.text + "0", now: beforeExpiry)
        }
        #expect(throws: PickupTokenError.malformed(.invalidBase45(.invalidLength))) {
            try verifier.verify(token.text + "00", now: beforeExpiry)
        }
    }

    @Test("lower-case, empty and padded text give typed errors")
    func caseAndWhitespace() throws {
        let text = try signer.sign(sampleClaims()).text
        #expect(throws: PickupTokenError.malformed(.missingPrefix)) {
            try verifier.verify(text.lowercased(), now: beforeExpiry)
        }
        let lowerBody = "FC1:" + text.dropFirst(4).lowercased()
        let error = #expect(throws: PickupTokenError.self) { try verifier.verify(lowerBody, now: beforeExpiry) }
        guard case .malformed(.invalidBase45(.invalidCharacter)) = error else {
            Issue.record("lower-case body: \(String(describing: error))")
            return
        }
        #expect(throws: PickupTokenError.malformed(.missingPrefix)) { try verifier.verify("", now: beforeExpiry) }
        #expect(throws: PickupTokenError.malformed(.empty)) { try verifier.verify("FC1:", now: beforeExpiry) }
        #expect(throws: PickupTokenError.malformed(.missingPrefix)) {
            try verifier.verify(" " + text, now: beforeExpiry)
        }
        #expect(throws: PickupTokenError.self) { try verifier.verify(text + "\n", now: beforeExpiry) }
    }

    @Test("random garbage never verifies and never crashes (seeded, many cases)")
    func randomGarbage() throws {
        var rng = SeededRandom(seed: 0xF00D)
        let alphabet = Array(Base45.alphabet.utf8)
        for round in 0..<3000 {
            let text: String
            switch round % 4 {
            case 0:  // arbitrary bytes as text
                text = String(decoding: rng.bytes(Int.random(in: 0...300, using: &rng)), as: UTF8.self)
            case 1:  // prefix + random alphabet characters
                let body = (0..<Int.random(in: 0...200, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }
                text = "FC1:" + String(decoding: body, as: UTF8.self)
            case 2:  // prefix + Base45 of random bytes of any length
                text = "FC1:" + Base45.encode(rng.bytes(Int.random(in: 0...120, using: &rng)))
            default:  // well-formed layout, trusted key id, random claims and signature
                text = "FC1:" + Base45.encode([1, 0, 1] + rng.bytes(88))
            }
            let error = #expect(throws: PickupTokenError.self) { try verifier.verify(text, now: beforeExpiry) }
            if round % 4 == 3 { #expect(error == .badSignature) }
        }
        for _ in 0..<1000 {
            #expect(throws: PickupTokenError.self) {
                try verifier.verify(bytes: rng.bytes(Int.random(in: 0...200, using: &rng)), now: beforeExpiry)
            }
        }
    }

    @Test("error codes are stable strings")
    func errorCodes() {
        #expect(PickupTokenError.malformed(.empty).code == "malformed")
        #expect(PickupTokenError.unknownKeyID(PickupKeyID(3)).code == "unknown_key_id")
        #expect(PickupTokenError.badSignature.code == "bad_signature")
        #expect(PickupTokenError.expired(at: Date()).code == "expired")
        #expect(PickupTokenError.unsupportedVersion(9).code == "unsupported_version")
    }
}
