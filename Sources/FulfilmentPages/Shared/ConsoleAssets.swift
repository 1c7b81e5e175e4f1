import Crypto
import Foundation
import FulfilmentDomain
import HTTPTypes
import Hummingbird

/// The console's and the shop's stylesheet and scripts: files in `Sources/FulfilmentPages/Assets`
/// (copied into the target's resources), served under `/console/assets/NAME?v=HASH`. The hash
/// changes with the content, so browsers may keep each version for a year (`immutable`) and
/// still never run a stale script. Every page works without the scripts (plain forms); they add
/// what only a script can (keeping a scanner's box focused, camera scanning, live updates).
///
/// A served script is its page's file after the shared parts it uses (`Assets/shared/`), joined
/// in the order ``manifest`` gives, so a page loads one script. No script is ever inline: the
/// pages' CSP is `script-src 'self'`.
enum ConsoleAssets {
    struct Asset: Sendable {
        var contentType: String
        var body: String
        var version: String
    }

    /// Each served asset: its type, and the files it is made of, in order.
    static let manifest: [(name: String, type: String, files: [String])] = [
        ("console.css", "text/css; charset=utf-8", ["console.css"]),
        ("desk.js", javaScript, ["shared/keep-focus.js", "shared/camera.js", "shared/live-events.js", "shared/waits.js", "desk.js"]),
        ("board.js", javaScript, ["shared/live-events.js", "board.js", "shared/waits.js"]),
        ("pick.js", javaScript, ["shared/keep-focus.js", "pick.js"]),
        ("shop.js", javaScript, ["shared/camera.js", "shop.js"]),
    ]
    private static let javaScript = "text/javascript; charset=utf-8"

    static let all: [String: Asset] = {
        var assets: [String: Asset] = [:]
        for (name, type, files) in manifest {
            let body = files.map(file).joined()
            let digest = SHA256.hash(data: Data(body.utf8)).prefix(6).map { String(format: "%02x", $0) }.joined()
            assets[name] = Asset(contentType: type, body: body, version: digest)
        }
        return assets
    }()

    /// One file of the target's `Assets` folder. A missing one is a broken build, said at once.
    static func file(_ path: String) -> String {
        guard let url = Bundle.module.url(forResource: "Assets/\(path)", withExtension: nil),
            let text = try? String(contentsOf: url, encoding: .utf8)
        else { fatalError("The pages' asset \(path) is not in the FulfilmentPages resources.") }
        return text
    }

    static func url(_ name: String) -> String {
        "/console/assets/\(name)?v=\(all[name]?.version ?? "0")"
    }

    static func response(_ name: String, request: Request) -> Response {
        guard let asset = all[name] else {
            return Response(
                status: .notFound, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: "Not found.\n")))
        }
        let etag = "\"\(asset.version)\""
        var headers: HTTPFields = [
            .contentType: asset.contentType,
            .cacheControl: "public, max-age=31536000, immutable",
            .eTag: etag,
            HTTPField.Name("X-Content-Type-Options")!: "nosniff",
        ]
        if request.headers[.ifNoneMatch] == etag {
            headers[.contentType] = nil
            return Response(status: .notModified, headers: headers)
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: asset.body)))
    }
}
