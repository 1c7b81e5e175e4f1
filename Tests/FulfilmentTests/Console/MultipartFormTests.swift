import Foundation
import Testing

@testable import FulfilmentDomain
@testable import FulfilmentPages

/// The console's file upload (issue 46) arrives as `multipart/form-data` (RFC 7578): read as a
/// browser sends it, and anything else refused with a sentence, never a trap.
@Suite("Console forms: multipart/form-data, as a browser sends a file")
struct MultipartFormTests {
    static func body(_ parts: [String], boundary: String = "----WebKitFormBoundaryx7Yb", closed: Bool = true) -> [UInt8] {
        var text = parts.map { "--\(boundary)\r\n\($0)\r\n" }.joined()
        if closed { text += "--\(boundary)--\r\n" }
        return Array(text.utf8)
    }

    @Test("a field and a file, with CRLF line ends and a CSV's own line ends kept")
    func fieldAndFile() throws {
        let body = Self.body([
            "Content-Disposition: form-data; name=\"_csrf\"\r\n\r\ntoken-123",
            "Content-Disposition: form-data; name=\"file\"; filename=\"C:\\\\Users\\\\ann\\\\stock.csv\"\r\nContent-Type: text/csv\r\n\r\nsku,on_hand\r\nQC-1,4\r\n",
        ])
        let form = try MultipartForm(body, boundary: "----WebKitFormBoundaryx7Yb")
        #expect(form.fields == ["_csrf": "token-123"])
        #expect(form.files["file"]?.fileName == "stock.csv")
        #expect(form.files["file"]?.contentType == "text/csv")
        #expect(form.files["file"].map { String(decoding: $0.data, as: UTF8.self) } == "sku,on_hand\r\nQC-1,4\r\n")
    }

    @Test("the boundary is read from the Content-Type, quoted or not; none, an empty or an overlong one is refused")
    func boundaries() throws {
        #expect(try MultipartForm.boundary(contentType: "multipart/form-data; boundary=abc") == "abc")
        #expect(try MultipartForm.boundary(contentType: "Multipart/Form-Data; charset=utf-8; boundary=\"a b;c\"") == "a b;c")
        #expect(try MultipartForm.boundary(contentType: "application/x-www-form-urlencoded") == nil)
        for refused in [
            "multipart/form-data", "multipart/form-data; boundary=", "multipart/form-data; boundary=\(String(repeating: "x", count: 71))",
        ] {
            #expect(throws: APIError.self) { try MultipartForm.boundary(contentType: refused) }
        }
        let form = try MultipartForm(
            Self.body(["Content-Disposition: form-data; name=\"a\"\r\n\r\n1"], boundary: "a b;c"), boundary: "a b;c")
        #expect(form.fields["a"] == "1")
    }

    @Test("a body cut short, without a boundary, with a part without a name or without its headers' end: each a sentence")
    func refusals() {
        let cases: [(String, [UInt8], String)] = [
            (
                "no final boundary", Self.body(["Content-Disposition: form-data; name=\"file\"; filename=\"a.csv\"\r\n\r\nsku"], closed: false),
                "last boundary"
            ),
            ("no boundary at all", Array("sku,on_hand\r\nQC-1,4\r\n".utf8), "first boundary"),
            ("a part without a name", Self.body(["Content-Disposition: form-data\r\n\r\nx"]), "no name"),
            ("headers without their end", Array("--b\r\nContent-Disposition: form-data; name=\"a\"".utf8), "headers"),
            ("a boundary run into its part", Array("--bX\r\n\r\n--b--".utf8), "line end"),
            ("the empty body", [], "first boundary"),
        ]
        for (what, body, words) in cases {
            let boundary = what == "no final boundary" || what == "a part without a name" ? "----WebKitFormBoundaryx7Yb" : "b"
            do {
                _ = try MultipartForm(body, boundary: boundary)
                Issue.record("\(what): read, where it should be refused")
            } catch {
                #expect(error.status == .badRequest, "\(what)")
                #expect(error.message.contains(words), "\(what): \(error.message)")
            }
        }
    }

    @Test("more parts than a form has are refused; a file with nothing chosen is an empty file")
    func bounds() throws {
        let many = Self.body((0...MultipartForm.maximumParts).map { "Content-Disposition: form-data; name=\"f\($0)\"\r\n\r\nx" })
        #expect(throws: APIError.self) { try MultipartForm(many, boundary: "----WebKitFormBoundaryx7Yb") }
        let none = try MultipartForm(
            Self.body(["Content-Disposition: form-data; name=\"file\"; filename=\"\"\r\nContent-Type: application/octet-stream\r\n\r\n"]),
            boundary: "----WebKitFormBoundaryx7Yb")
        #expect(none.files["file"] == MultipartForm.File(fileName: "", contentType: "application/octet-stream", data: Data()))
        #expect(MultipartForm.parameter("filename", in: "form-data; name=\"file\"; filename=\"say \\\"hi\\\".csv\"") == "say \"hi\".csv")
    }
}
