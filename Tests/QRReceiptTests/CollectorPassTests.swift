import Crypto
import Foundation
import QRReceipt
import Testing

/// Issue 48: a collector pass is a pickup token of its own (format version 2) naming the order
/// and the pass, signed with the same keys, so the desk and an offline scanner check it as they
/// check a receipt, and neither kind can be turned into the other.
@Suite("Collector passes: layout, signing, verification")
struct CollectorPassTests {
    let key = fixedPrivateKey(0x33)
    var signer: PickupTokenSigner { PickupTokenSigner(keyID: PickupKeyID(7), privateKey: key) }
    var verifier: PickupTokenVerifier { PickupTokenVerifier(trustedKeys: [PickupKeyID(7): key.publicKey]) }
    let order = UUID(uuidString: "00112233-4455-6677-8899-AABBCCDDEEFF")!
    let pass = UUID(uuidString: "F0E1D2C3-B4A5-9687-7869-5A4B3C2D1E0F")!
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("107 bytes as documented: the receipt's fields, then the pass's id, signed under its own tag")
    func layout() throws {
        let claims = PickupToken.Claims(orderID: order, storeNumber: 0x0102_0304, expiry: 0xA0B0_C0D0, collectorPassID: pass)
        let token = try signer.sign(claims)
        let bytes = token.bytes
        #expect(bytes.count == 107 && token.version == 2 && token.isCollectorPass)
        #expect(bytes[0] == 0x02)
        #expect(Array(bytes[1..<3]) == [0x00, 0x07])
        #expect(Array(bytes[19..<23]) == [0x01, 0x02, 0x03, 0x04])
        #expect(Array(bytes[27..<43]) == withUnsafeBytes(of: pass.uuid) { Array($0) })
        // Plain Ed25519 over "fulfilment collector pass\0" + bytes 0..<43, as an offline scanner checks it.
        let message = Array("fulfilment collector pass".utf8) + [0] + Array(bytes[..<43])
        #expect(key.publicKey.isValidSignature(token.signature, for: message))
        let asReceipt = Array("fulfilment pickup token".utf8) + [0] + Array(bytes[..<43])
        #expect(!key.publicKey.isValidSignature(token.signature, for: asReceipt))
        #expect(token.text.hasPrefix("FC1:") && token.text.utf8.count == 165)
        #expect(try PickupToken(text: token.text) == token)
    }

    @Test("a pass verifies with the published keys and names its order and pass; a receipt names none")
    func verifies() throws {
        let pass = try signer.sign(.init(orderID: order, storeNumber: 9, expiresAt: now.addingTimeInterval(3600), collectorPassID: self.pass))
        let verified = try verifier.verify(pass.text, now: now)
        #expect(verified.claims.orderID == order && verified.claims.collectorPassID == self.pass)
        let receipt = try signer.sign(.init(orderID: order, storeNumber: 9, expiresAt: now.addingTimeInterval(3600)))
        #expect(try verifier.verify(receipt.text, now: now).claims.collectorPassID == nil)
        #expect(receipt.bytes.count == 91 && receipt.version == 1)
    }

    @Test("a pass with another collector's id, cut to a receipt's length, or expired is refused")
    func forgeries() throws {
        let token = try signer.sign(.init(orderID: order, storeNumber: 9, expiresAt: now.addingTimeInterval(60), collectorPassID: pass))
        var otherCollector = token.bytes
        otherCollector[30] ^= 0x01
        #expect(throws: PickupTokenError.badSignature) { try verifier.verify(bytes: otherCollector, now: now) }
        // The pass's first 27 bytes and its signature, relabelled a receipt: the right length for
        // version 1, but the signature was made under the pass's tag over 43 bytes.
        var relabelled = Array(token.bytes[..<27]) + token.signature
        relabelled[0] = 0x01
        #expect(throws: PickupTokenError.badSignature) { try verifier.verify(bytes: relabelled, now: now) }
        #expect(throws: PickupTokenError.self) { try verifier.verify(bytes: token.bytes.dropLast(), now: now) }
        #expect(throws: PickupTokenError.expired(at: now.addingTimeInterval(60))) {
            try verifier.verify(token.text, now: now.addingTimeInterval(60))
        }
    }
}
