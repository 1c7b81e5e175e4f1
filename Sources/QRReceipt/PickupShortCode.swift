import Crypto
import Foundation

/// The short code printed beside a receipt's QR (issue 46): twelve letters a person can read out
/// and type at the desk when the QR will not scan, `KDPT MRGB HLCN`, instead of the token's 140
/// characters. It names the token it was printed with (a new token, a new code) and is looked up,
/// never verified: the desk finds the order whose current token has it, at its own store.
///
/// The letters are the first 48 bits of the MD5 of the token's text, each hex digit written as
/// one of sixteen consonants (`0` is `B`, `f` is `T`): no digits, so it is never taken for an order
/// number; no vowels, so it never spells a word. MD5 because PostgreSQL computes the same as an
/// immutable expression (`pickup_tokens.short_code`, migration 053, a generated column the desk's
/// lookup reads by index); the code is a name for the token, not a proof of it, and 48 bits of
/// it say nothing usable about the token's signature.
public enum PickupShortCode {
    /// The sixteen letters, in the order of the hex digits they stand for.
    public static let alphabet = Array("BCDFGHJKLMNPQRST")
    /// Letters in a code.
    public static let length = 12

    /// The code of a token's text, without spaces (`KDPTMRGBHLCN`).
    public static func of(_ tokenText: String) -> String {
        let digest = Insecure.MD5.hash(data: Data(tokenText.utf8))
        var letters = ""
        for byte in digest.prefix(length / 2) {
            letters.append(alphabet[Int(byte >> 4)])
            letters.append(alphabet[Int(byte & 0x0f)])
        }
        return letters
    }

    /// As printed: in threes of four, `KDPT MRGB HLCN`.
    public static func printed(_ code: String) -> String {
        stride(from: 0, to: code.count, by: 4).map { start in
            String(code.dropFirst(start).prefix(4))
        }.joined(separator: " ")
    }

    /// What a person typed, as a code: twelve of the letters in any case, spaces and dashes
    /// anywhere; nil for anything else (a token, an order number, a name).
    public static func typed(_ text: String) -> String? {
        guard text.unicodeScalars.count <= 40 else { return nil }
        let letters = text.uppercased().filter { $0 != " " && $0 != "-" && !$0.isNewline && $0 != "\t" }
        guard letters.count == length, letters.allSatisfy(alphabet.contains) else { return nil }
        return letters
    }
}
