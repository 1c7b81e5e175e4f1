import Foundation
import FulfilmentDomain

/// A `multipart/form-data` body (RFC 7578), as a browser sends a form with a file (the
/// catalogue import's): its text fields and its files.
///
/// Read from bytes the route's `BodyLimit` has already bounded, and bounded again here (parts,
/// header lines), so a hostile body is a refusal with a sentence (`400 bad_form`), never a trap
/// or a runaway: no boundary, a boundary longer than RFC 2046's 70 characters, a body that ends
/// before its closing boundary, a part without its headers' end or a name.
struct MultipartForm: Sendable, Equatable {
    struct File: Sendable, Equatable {
        /// The name the browser gave (its last path component only; empty when none was chosen).
        var fileName: String
        var contentType: String?
        var data: Data
    }

    var fields: [String: String] = [:]
    var files: [String: File] = [:]

    /// The most parts a console form has (a few fields and a file).
    static let maximumParts = 50
    /// The most bytes of one part's headers.
    static let maximumHeaderBytes = 8 * 1024

    static func refusal(_ why: String) -> APIError {
        APIError(.badRequest, "bad_form", "The form could not be read: \(why). Reload the page and send it again.")
    }

    /// The boundary a `Content-Type` names, unquoted; nil when the type is not `multipart/form-data`.
    static func boundary(contentType: String) throws(APIError) -> String? {
        let type = contentType.prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces)
        guard type.lowercased() == "multipart/form-data" else { return nil }
        // The parameters after the type, read as `Content-Disposition`'s are (a quoted value may hold ";").
        guard let value = parameter("boundary", in: String(contentType[(contentType.firstIndex(of: ";") ?? contentType.endIndex)...])) else {
            throw refusal("it names no boundary")
        }
        guard (1...70).contains(value.utf8.count), !value.contains("\r"), !value.contains("\n") else {
            throw refusal("its boundary is empty or longer than 70 characters")
        }
        return value
    }

    init(fields: [String: String] = [:], files: [String: File] = [:]) {
        self.fields = fields
        self.files = files
    }

    /// Reads `body`, whose parts are separated by `boundary`.
    init(_ body: [UInt8], boundary: String) throws(APIError) {
        let delimiter = Array("--\(boundary)".utf8)
        let crlf: [UInt8] = [13, 10]
        // The first delimiter: at the start, or after a preamble's line end.
        guard var position = Self.find(delimiter, in: body, from: 0, atLineStart: true) else {
            throw Self.refusal("its first boundary is missing")
        }
        var parts = 0
        while true {
            position += delimiter.count
            // "--" after a delimiter closes the body.
            if body[position...].starts(with: [45, 45]) { return }
            // Transport padding (spaces, tabs) then the line end.
            while position < body.count, body[position] == 32 || body[position] == 9 { position += 1 }
            guard body[position...].starts(with: crlf) else { throw Self.refusal("a boundary is not followed by a line end") }
            position += 2
            parts += 1
            guard parts <= Self.maximumParts else { throw Self.refusal("it has more than \(Self.maximumParts) parts") }
            guard let headersEnd = Self.find([13, 10, 13, 10], in: body, from: position - 2, atLineStart: false),
                headersEnd - position <= Self.maximumHeaderBytes
            else { throw Self.refusal("a part's headers do not end") }
            let headers = Self.headers(body[position..<max(position, headersEnd)])
            let contentStart = headersEnd + 4
            guard let next = Self.find(crlf + delimiter, in: body, from: contentStart, atLineStart: false) else {
                throw Self.refusal("it ends before its last boundary (was the upload cut short?)")
            }
            let content = Data(body[contentStart..<next])
            guard let disposition = headers["content-disposition"], let name = Self.parameter("name", in: disposition) else {
                throw Self.refusal("a part has no name")
            }
            if let fileName = Self.parameter("filename", in: disposition) {
                let last = fileName.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
                files[name] = File(fileName: last, contentType: headers["content-type"], data: content)
            } else {
                fields[name] = String(decoding: content, as: UTF8.self)
            }
            position = next + 2
        }
    }

    /// The part's header lines, by lowercased name.
    private static func headers(_ bytes: ArraySlice<UInt8>) -> [String: String] {
        var headers: [String: String] = [:]
        for line in String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()] = line[line.index(after: colon)...]
                .trimmingCharacters(in: .whitespaces)
        }
        return headers
    }

    /// A parameter of a `Content-Disposition` (`name="file"`), quoted or not; a backslash escapes
    /// the next character in a quoted value.
    static func parameter(_ wanted: String, in header: String) -> String? {
        var rest = Substring(header)
        while let semicolon = rest.firstIndex(of: ";") {
            rest = rest[rest.index(after: semicolon)...].drop(while: { $0 == " " || $0 == "\t" })
            guard let equals = rest.firstIndex(of: "=") else { return nil }
            let name = rest[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            var value = ""
            var index = rest.index(after: equals)
            if index < rest.endIndex, rest[index] == "\"" {
                index = rest.index(after: index)
                var escaped = false
                while index < rest.endIndex {
                    let character = rest[index]
                    index = rest.index(after: index)
                    if escaped {
                        value.append(character)
                        escaped = false
                    } else if character == "\\" {
                        escaped = true
                    } else if character == "\"" {
                        break
                    } else {
                        value.append(character)
                    }
                }
            } else {
                let end = rest[index...].firstIndex(of: ";") ?? rest.endIndex
                value = rest[index..<end].trimmingCharacters(in: .whitespaces)
                index = end
            }
            if name == wanted { return value }
            rest = rest[index...]
        }
        return nil
    }

    /// Where `needle` next starts in `haystack` at or after `start` (at a line start only, when
    /// asked: the first byte or just after CRLF).
    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int, atLineStart: Bool) -> Int? {
        guard !needle.isEmpty, start >= 0, haystack.count >= needle.count else { return nil }
        let last = haystack.count - needle.count
        guard start <= last else { return nil }
        let first = needle[0]
        return haystack.withUnsafeBufferPointer { bytes -> Int? in
            needle.withUnsafeBufferPointer { wanted -> Int? in
                var index = start
                while index <= last {
                    if bytes[index] == first, memcmp(bytes.baseAddress! + index, wanted.baseAddress!, wanted.count) == 0,
                        !atLineStart || index == 0 || (index >= 2 && bytes[index - 2] == 13 && bytes[index - 1] == 10)
                    {
                        return index
                    }
                    index += 1
                }
                return nil
            }
        }
    }
}
