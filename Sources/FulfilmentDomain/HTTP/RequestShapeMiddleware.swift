import Foundation
import HTTPTypes
import Hummingbird

/// `405 method_not_allowed` with `Allow` for a path the contract has under other methods (a
/// `DELETE` of the checkout, a `GET` of the picks), instead of a misleading 404, judged from the
/// contract itself so it never drifts from it; and every body capped by its route's `BodyLimit`
/// (`413`) before any of it is read.
package struct RequestShapeMiddleware<Context: RequestContext>: RouterMiddleware {
    package let routes: ContractRoutes

    package init(routes: ContractRoutes) {
        self.routes = routes
    }

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let request = try await BodyLimit.of(method: request.method, path: request.uri.path).apply(to: request)
        if let allowed = routes.methods(for: request.uri.path), !allowed.contains(request.method.rawValue) {
            throw APIError(
                .methodNotAllowed, "method_not_allowed",
                "\(request.method.rawValue) is not allowed here; use \(allowed.sorted().joined(separator: ", ")).",
                details: ["allow": .array(allowed.sorted().map { .string($0) })],
                headers: [.allow: allowed.sorted().joined(separator: ", ")])
        }
        return try await next(request, context)
    }
}

/// The paths of the contract, each with the methods it answers (read once from `openapi.yaml`).
package struct ContractRoutes: Sendable {
    package struct Route: Sendable {
        package var segments: [String?]  // nil: a `{parameter}` segment
        package var suffix: String?  // `.html` after a trailing parameter, as in `/v1/pick-lists/{id}.html`
        package var methods: Set<String>
    }

    /// The routes by how many segments their path has: a request is compared with those alone.
    private let bySegmentCount: [Int: [Route]]
    /// The suffixes routes end in (`.html`), for telling `/v1/pick-lists/{id}` from `{id}.html`.
    private let suffixes: [String]

    package init(yaml: String) {
        var routes: [Route] = []
        var inPaths = false
        for line in yaml.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("paths:") {
                inPaths = true
                continue
            }
            if inPaths, let first = line.first, first != " " { break }
            guard inPaths else { continue }
            if line.hasPrefix("  /"), line.hasSuffix(":") {
                let path = String(line.dropFirst(2).dropLast())
                var suffix: String?
                let segments: [String?] = path.split(separator: "/").map { segment in
                    guard segment.hasPrefix("{"), let close = segment.firstIndex(of: "}") else { return String(segment) }
                    let rest = segment[segment.index(after: close)...]
                    if !rest.isEmpty { suffix = String(rest) }
                    return nil
                }
                routes.append(Route(segments: segments, suffix: suffix, methods: []))
            } else if line.hasPrefix("    "), !line.hasPrefix("     "), line.hasSuffix(":"), !routes.isEmpty {
                let method = line.trimmingCharacters(in: .whitespaces).dropLast().uppercased()
                if ["GET", "PUT", "POST", "DELETE", "PATCH"].contains(method) { routes[routes.count - 1].methods.insert(method) }
            }
        }
        self.bySegmentCount = Dictionary(grouping: routes, by: \.segments.count)
        self.suffixes = routes.compactMap(\.suffix)
    }

    /// The methods the contract has for `path` (HEAD wherever GET is), or nil for a path it does not have.
    package func methods(for path: String) -> Set<String>? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        var found: Set<String>?
        for route in bySegmentCount[parts.count] ?? [] {
            var matches = true
            for (segment, part) in zip(route.segments, parts) {
                if let literal = segment {
                    if literal != part {
                        matches = false
                        break
                    }
                } else if part.isEmpty {
                    matches = false
                    break
                }
            }
            if matches, let suffix = route.suffix, !(parts.last?.hasSuffix(suffix) ?? false) { matches = false }
            if matches, route.suffix == nil, let last = parts.last, route.segments.last == nil, last.contains(".") {
                // `/v1/pick-lists/{id}` must not claim `/v1/pick-lists/abc.html`.
                if suffixes.contains(where: { last.hasSuffix($0) }) { matches = false }
            }
            if matches { found = (found ?? []).union(route.methods) }
        }
        guard var methods = found else { return nil }
        if methods.contains("GET") { methods.insert("HEAD") }
        return methods
    }
}
