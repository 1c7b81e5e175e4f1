import FulfilmentDomain
import Hummingbird

/// The deployment's brand (``Brand``) as the pages show it: bound for each request by
/// ``PageBrandMiddleware`` (a task-local, so two services in one process, as the tests run
/// them, each keep their own), read by every page (``ConsolePage``) and served as `/brand.css`,
/// the one stylesheet that is not a fixed asset (the brand's colour as the pages' accent).
package enum PageBrand {
    @TaskLocal package static var current = Brand.standard

    /// The name (and logo) at the top of every page; the logo's text alternative is the name.
    static var mark: HTML {
        let brand = current
        guard let logo = brand.logoURL else { return "<span class=\"brand\">\(brand.name)</span>" }
        return "<span class=\"brand\"><img class=\"brand-logo\" src=\"\(logo)\" alt=\"\" height=\"28\"> \(brand.name)</span>"
    }

    /// `/brand.css`: the colour of links and buttons (checked for 4.5:1 against white when set).
    package static func stylesheet() -> Response {
        let colour = current.colour ?? "#0a4b9c"
        return Response(
            status: .ok,
            headers: [.contentType: "text/css; charset=utf-8", .cacheControl: "public, max-age=300"],
            body: .init(byteBuffer: ByteBuffer(string: ":root { --accent: \(colour); }\n")))
    }
}

/// Binds the deployment's brand to every request (``PageBrand/current``).
package struct PageBrandMiddleware<Context: RequestContext>: RouterMiddleware {
    package let brand: Brand

    package init(brand: Brand) { self.brand = brand }

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        try await PageBrand.$current.withValue(brand) { try await next(request, context) }
    }
}
