import Crypto
import Foundation
import FulfilmentDomain
import HTTPTypes
import Hummingbird

/// The console's stylesheet and scripts, compiled into the binary (no files to deploy) and
/// served under `/console/assets/NAME?v=HASH`. The hash changes with the content, so browsers
/// may keep each version for a year (`immutable`) and still never run a stale script.
enum ConsoleAssets {
    struct Asset: Sendable {
        var contentType: String
        var body: String
        var version: String
    }

    static let all: [String: Asset] = {
        var assets: [String: Asset] = [:]
        for (name, type, body) in [
            ("console.css", "text/css; charset=utf-8", ConsoleStyles.css),
            ("desk.js", "text/javascript; charset=utf-8", ConsoleScripts.desk),
            ("board.js", "text/javascript; charset=utf-8", ConsoleScripts.board),
            ("pick.js", "text/javascript; charset=utf-8", ConsoleScripts.pick),
            ("shop.js", "text/javascript; charset=utf-8", ShopScripts.shop),
        ] {
            let digest = SHA256.hash(data: Data(body.utf8)).prefix(6).map { String(format: "%02x", $0) }.joined()
            assets[name] = Asset(contentType: type, body: body, version: digest)
        }
        return assets
    }()

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
