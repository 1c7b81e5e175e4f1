/// Escapes text for HTML element content and quoted attribute values: the one escaper of the
/// pick sheet and the store console.
///
/// It works per Unicode scalar, not per `Character`: a `"` followed by a combining mark
/// (U+0301) is one grapheme to Swift but still a quote to an HTML parser, so walking graphemes
/// would let it close an attribute. Besides `& < > " '`, characters HTML forbids (NUL and other
/// C0/C1 controls except tab, line feed and carriage return, and noncharacters) become U+FFFD,
/// so no product name can break the document.
public enum HTMLEscaping {
    public static func escape(_ text: String) -> String {
        var needsWork = false
        for scalar in text.unicodeScalars where needsEscaping(scalar) {
            needsWork = true
            break
        }
        guard needsWork else { return text }
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default:
                escaped.unicodeScalars.append(isForbidden(scalar) ? "\u{FFFD}" : scalar)
            }
        }
        return escaped
    }

    private static func needsEscaping(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "&", "<", ">", "\"", "'": true
        default: isForbidden(scalar)
        }
    }

    private static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: false
        case 0x00...0x1F, 0x7F...0x9F, 0xFDD0...0xFDEF: true
        default: scalar.value & 0xFFFE == 0xFFFE
        }
    }
}
