/// A small RFC 4180 CSV reader: comma-separated, `"`-quoted fields (`""` is a quote inside
/// one), quoted fields may span lines, LF or CRLF line ends, an optional UTF-8 BOM.
package struct CSV {
    /// One record and the line of the file it starts on (1-based), for error messages.
    package struct Record: Equatable {
        package var line: Int
        package var fields: [String]
    }

    package struct SyntaxError: Error, Equatable {
        package var line: Int
        package var message: String
    }

    /// Every record; blank lines are skipped.
    package static func parse(_ text: String) throws(SyntaxError) -> [Record] {
        var records: [Record] = []
        var fields: [String] = []
        var field = ""
        var inQuotes = false
        var quotedField = false
        var line = 1
        var recordLine = 1
        var scalars = Array(text.unicodeScalars)
        if scalars.first == "\u{FEFF}" { scalars.removeFirst() }
        var index = 0

        func endRecord() {
            fields.append(field)
            if !(fields.count == 1 && fields[0].isEmpty && !quotedField) {
                records.append(Record(line: recordLine, fields: fields))
            }
            fields = []
            field = ""
            quotedField = false
        }

        while index < scalars.count {
            let c = scalars[index]
            index += 1
            if inQuotes {
                if c == "\"" {
                    if index < scalars.count && scalars[index] == "\"" {
                        field.unicodeScalars.append("\"")
                        index += 1
                    } else {
                        inQuotes = false
                    }
                } else {
                    if c == "\n" { line += 1 }
                    field.unicodeScalars.append(c)
                }
                continue
            }
            switch c {
            case "\"":
                guard field.isEmpty && !quotedField else {
                    throw SyntaxError(line: line, message: "a quote in the middle of an unquoted field")
                }
                inQuotes = true
                quotedField = true
            case ",":
                fields.append(field)
                field = ""
                quotedField = false
            case "\r" where index < scalars.count && scalars[index] == "\n":
                continue
            case "\n":
                endRecord()
                line += 1
                recordLine = line
            default:
                if quotedField { throw SyntaxError(line: line, message: "text after a closing quote") }
                field.unicodeScalars.append(c)
            }
        }
        if inQuotes { throw SyntaxError(line: recordLine, message: "a quoted field is never closed") }
        if !field.isEmpty || !fields.isEmpty || quotedField { endRecord() }
        return records
    }
}
