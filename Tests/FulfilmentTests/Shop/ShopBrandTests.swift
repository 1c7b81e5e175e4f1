import Foundation
import HTTPTypes
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

/// The chain's own name, logo and colour on every page (issue 45), from the deployment's settings.
@Suite("The shop wears the chain's brand")
struct ShopBrandTests {
    @Test("the brand's name, logo and colour are on every page; a colour too faint to read, or a logo elsewhere than https, stops the start")
    func brand() async throws {
        let brand = try Brand.from(environment: [
            "FULFILMENT_BRAND_NAME": "QuickCart Jamaica", "FULFILMENT_BRAND_LOGO_URL": "https://cdn.quickcart.example/logo.png",
            "FULFILMENT_BRAND_COLOUR": "#0B6E2F",
        ])
        #expect(brand.colour == "#0b6e2f")
        #expect(throws: Brand.Invalid.self) { try Brand.from(environment: ["FULFILMENT_BRAND_COLOUR": "#ffcc00"]) }
        #expect(throws: Brand.Invalid.self) { try Brand.from(environment: ["FULFILMENT_BRAND_COLOUR": "green"]) }
        #expect(throws: Brand.Invalid.self) { try Brand.from(environment: ["FULFILMENT_BRAND_LOGO_URL": "http://plain.example/logo.png"]) }
        #expect(throws: Brand.Invalid.self) { try Brand.from(environment: ["FULFILMENT_BRAND_LOGO_URL": "//evil.example/x.png"]) }
        #expect(try Brand.from(environment: [:]) == .standard)

        try await withApp(configure: { $0.brand = brand }) { app in
            let store = try await app.createStore()
            for path in ["/shop/stores", "/", "/shop/register", "/shop/nowhere"] {
                let page = try await app.form(.get, path, cookie: "\(ShopVisit.storeCookie)=\(store)")
                #expect(page.text.contains("· QuickCart Jamaica</title>"), "\(path)")
                #expect(!page.text.contains("Fulfilment</"), "\(path)")
                #expect(page.text.contains("<link rel=\"stylesheet\" href=\"/brand.css\">"), "\(path)")
                let policy = try #require(page.headers[HTTPField.Name("Content-Security-Policy")!])
                #expect(policy.contains("img-src 'self' data: blob: https://cdn.quickcart.example;"), "\(policy)")
            }
            let shop = try await app.form(.get, "/shop/stores").text
            #expect(
                shop.contains("<img class=\"brand-logo\" src=\"https://cdn.quickcart.example/logo.png\" alt=\"\" height=\"28\"> QuickCart Jamaica"))
            let css = try await app.request(.get, "/brand.css")
            #expect(css.text == ":root { --accent: #0b6e2f; }\n" && css.headers[.contentType]?.hasPrefix("text/css") == true)
        }
    }
}
