import Foundation
import PickList
import TestSupport
import Testing

@Suite("The printed HTML renders in headless Chromium to a PDF")
struct PDFRenderingTests {
    @Test("a busy pick list's sheet prints to a multi-page A4 PDF without error", .timeLimit(.minutes(2)))
    func rendersToPDF() async throws {
        let chromium = try #require(
            Self.executable(named: "chromium"),
            "chromium is not on PATH; install Debian's chromium (the Makefile's install step does: apt-get install -y chromium)"
        )

        let pickList = busyPickList(orders: 80)
        let route = try PickRoute(lines: pickList.lines, locations: pickList.locations)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pick-pdf-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let htmlFile = directory.appendingPathComponent("sheet.html")
        let pdfFile = directory.appendingPathComponent("sheet.pdf")
        try route.htmlSheet(header: Store.header).write(to: htmlFile, atomically: true, encoding: .utf8)

        let (status, output) = try await Self.run(
            chromium,
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
                "--user-data-dir=\(directory.appendingPathComponent("profile").path)",
                "--print-to-pdf=\(pdfFile.path)", htmlFile.absoluteString,
            ])
        #expect(status == 0, "chromium exited with \(status): \(output)")

        let pdf = try Data(contentsOf: pdfFile)
        #expect(pdf.starts(with: Array("%PDF-".utf8)), "not a PDF: \(pdf.prefix(16))")
        let pages = try await Self.pageCount(pdfFile, pdf)
        #expect(pages >= 1)
        #expect(pages >= 2, "\(route.stops.count) stops should not fit on one A4 page")
    }

    /// Pages per `pdfinfo` when poppler-utils is installed, else by counting page objects
    /// (Chromium writes them uncompressed).
    static func pageCount(_ file: URL, _ pdf: Data) async throws -> Int {
        if let pdfinfo = executable(named: "pdfinfo") {
            let (status, output) = try await run(pdfinfo, [file.path])
            #expect(status == 0, "pdfinfo failed: \(output)")
            let pagesLine = output.split(separator: "\n").first { $0.hasPrefix("Pages:") }
            return Int(pagesLine?.split(separator: " ").last ?? "") ?? 0
        }
        let text = String(decoding: pdf, as: UTF8.self)
        return text.components(separatedBy: "/Type /Page").count - 1
            - (text.components(separatedBy: "/Type /Pages").count - 1)
    }

    static func executable(named name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":")
            .map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Runs a program to completion, returning its exit status and combined output.
    static func run(_ executable: URL, _ arguments: [String]) async throws -> (Int32, String) {
        let ran = try await Subprocess.run(executable.path, arguments)
        return (ran.status, ran.output + ran.errors)
    }
}
