/// Fits text to a fixed number of printer columns.
///
/// Width is measured in columns, not characters: East Asian wide characters and emoji take two
/// columns (as on terminals and receipt printers that can print them), combining marks none.
enum TextWrapping {
    /// Lays `words` out as lines no wider than `width`, joined by single spaces.
    ///
    /// The first line starts with `firstPrefix`, the rest with `continuationPrefix`. A word wider
    /// than a line is broken between characters. Precondition: both prefixes leave room for at
    /// least two columns.
    static func wrap(
        _ words: [String], width: Int, firstPrefix: String = "", continuationPrefix: String = ""
    ) -> [String] {
        precondition(columns(firstPrefix) + 2 <= width && columns(continuationPrefix) + 2 <= width, "prefix too wide")
        var lines: [String] = []
        var line = firstPrefix
        var used = columns(firstPrefix)
        var lineHasWord = false

        func newLine() {
            lines.append(line)
            line = continuationPrefix
            used = columns(continuationPrefix)
            lineHasWord = false
        }

        var pending = words.reversed().map(printable)
        while let word = pending.popLast() {
            if word.isEmpty { continue }
            let wordWidth = columns(word)
            if lineHasWord {
                if used + 1 + wordWidth <= width {
                    line += " " + word
                    used += 1 + wordWidth
                    continue
                }
                newLine()
            }
            if used + wordWidth <= width {
                line += word
                used += wordWidth
                lineHasWord = true
                continue
            }
            if word.contains(" ") {  // a phrase too long for any line: wrap its words instead
                pending += word.split(separator: " ").reversed().map(String.init)
                continue
            }
            for character in word {  // a word too long for any line: break it
                let characterWidth = columns(character)
                if used + characterWidth > width, lineHasWord { newLine() }
                line.append(character)
                used += characterWidth
                lineHasWord = true
            }
        }
        if lineHasWord || lines.isEmpty { lines.append(line) }
        return lines
    }

    /// Splits `text` at whitespace into words for ``wrap(_:width:firstPrefix:continuationPrefix:)``.
    static func words(_ text: String) -> [String] {
        text.split(whereSeparator: { $0.isWhitespace || $0.isNewline }).map(String.init)
    }

    /// `text` with control characters (newlines, tabs, escapes) turned into spaces: a product
    /// name must not be able to start a new line or send a command to the printer.
    static func printable(_ text: String) -> String {
        guard !text.unicodeScalars.allSatisfy(isPlainNarrow), text.unicodeScalars.contains(where: isControl) else {
            return text
        }
        return String(String.UnicodeScalarView(text.unicodeScalars.map { isControl($0) ? " " : $0 }))
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control || scalar == "\u{2028}" || scalar == "\u{2029}"
    }

    static func columns(_ text: String) -> Int {
        var count = 0
        for scalar in text.unicodeScalars {
            guard isPlainNarrow(scalar) else { return text.reduce(0) { $0 + columns($1) } }
            count += 1
        }
        return count
    }

    /// Scalars that are always one column and never combine with a neighbour: printable Latin
    /// and the common punctuation the sheet itself uses ("×", "—"). The fast path for `columns`.
    private static func isPlainNarrow(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x20...0x7E, 0xA0...0x2FF, 0x2010...0x2027, 0x2030...0x205E: true
        default: false
        }
    }

    static func columns(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if first.isASCII { return first.value < 0x20 || first.value == 0x7F ? 0 : 1 }
        if scalars.contains("\u{FE0F}") { return 2 }  // emoji presentation
        switch first.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: break
        }
        return isWide(first.value) ? 2 : 1
    }

    /// East Asian Wide and Fullwidth blocks, and the emoji planes.
    private static func isWide(_ v: UInt32) -> Bool {
        switch v {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0, 0x23F3,
            0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F, 0x2693, 0x26A1, 0x26AA...0x26AB,
            0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE, 0x26D4, 0x26EA, 0x26F2...0x26F3, 0x26F5, 0x26FA,
            0x26FD, 0x2705, 0x270A...0x270B, 0x2728, 0x274C, 0x274E, 0x2753...0x2755, 0x2757,
            0x2795...0x2797, 0x27B0, 0x27BF, 0x2B1B...0x2B1C, 0x2B50, 0x2B55,
            0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
            0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x1B2FF, 0x1F004, 0x1F0CF, 0x1F18E,
            0x1F191...0x1F19A, 0x1F200...0x1F2FF, 0x1F300...0x1F64F, 0x1F680...0x1F6FF,
            0x1F7E0...0x1F7FF, 0x1F900...0x1F9FF, 0x1FA70...0x1FAFF, 0x20000...0x3FFFD:
            true
        default:
            false
        }
    }
}
