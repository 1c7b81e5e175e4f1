import Foundation
import HTTPTypes
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// The pages' stylesheet and scripts are files (`Sources/FulfilmentPages/Assets`), and no page
/// carries a script, a style or an event handler inline: the CSP (`script-src 'self'`) would
/// refuse it in a browser, so one written into a view would silently not run.
@Suite("Page assets: files served whole under versioned URLs, and nothing inline")
struct PageAssetsTests {
    /// The folder of the pages' source files, found from this file's place in the repository.
    static let pagesSources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/FulfilmentPages")

    @Test("each asset served is its files joined in the manifest's order, versioned by its content")
    func servedAsFiles() async throws {
        try await withApp { app in
            for (name, _, files) in ConsoleAssets.manifest {
                let expected = try files.map { try String(contentsOf: Self.pagesSources.appendingPathComponent("Assets/\($0)"), encoding: .utf8) }
                    .joined()
                #expect(!expected.isEmpty, "\(name) is made of empty files")
                let served = try await app.form(.get, ConsoleAssets.url(name))
                #expect(served.status == .ok, "\(name)")
                #expect(served.text == expected, "\(name) is not its files joined")
                #expect(served.headers[.cacheControl] == "public, max-age=31536000, immutable")
            }
            #expect(try await app.form(.get, "/console/assets/nothing.js").status == .notFound)
        }
    }

    @Test("no view carries an inline script, style block, style attribute or event handler")
    func nothingInline() throws {
        let files = try #require(FileManager.default.enumerator(at: Self.pagesSources, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        #expect(files.count > 20, "the pages' sources were not found at \(Self.pagesSources.path)")
        // Markup lives in string literals; comments may name a tag, so only code lines are read.
        // A JSON-LD data block (a product page's schema.org data) is data no browser runs, not a script.
        let inline = try Regex(#"<script(?![^>]*\b(src=|type=\\?"application/ld\+json))|<style|\sstyle=\\?"|\son[a-z]+=\\?""#)
        var found: [String] = []
        for file in files {
            let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            for (number, line) in lines.enumerated() where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                if line.contains(inline) { found.append("\(file.lastPathComponent):\(number + 1): \(line)") }
            }
        }
        #expect(found.isEmpty, "inline script or style in the pages:\n\(found.joined(separator: "\n"))")
    }
}
