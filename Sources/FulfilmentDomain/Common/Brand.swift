import Foundation

/// The chain's own name, logo and colour on every page (issue 45): a grocer's customers see
/// their grocer, not "Fulfilment". Set per deployment from the environment
/// (`FULFILMENT_BRAND_NAME`, `FULFILMENT_BRAND_LOGO_URL`, `FULFILMENT_BRAND_COLOUR`), checked
/// when the service starts so a bad one stops it with a sentence rather than a broken page.
package struct Brand: Sendable, Equatable {
    package var name: String
    /// An https address (or a path on this site) of the logo shown beside the name.
    package var logoURL: String?
    /// `#rrggbb`, the colour of links and buttons: at least 4.5:1 against white, so text on it
    /// and it on white stay readable.
    package var colour: String?

    package static let standard = Brand(name: "Fulfilment", logoURL: nil, colour: nil)

    package init(name: String, logoURL: String?, colour: String?) {
        (self.name, self.logoURL, self.colour) = (name, logoURL, colour)
    }

    package struct Invalid: Error, CustomStringConvertible {
        package var description: String
    }

    package static func from(environment: [String: String]) throws -> Brand {
        var brand = Brand.standard
        if let name = environment["FULFILMENT_BRAND_NAME"]?.trimmingCharacters(in: .whitespaces), !name.isEmpty {
            guard name.count <= 60, !name.contains(where: { $0.isNewline }) else {
                throw Invalid(description: "FULFILMENT_BRAND_NAME: at most 60 characters on one line.")
            }
            brand.name = name
        }
        if let logo = environment["FULFILMENT_BRAND_LOGO_URL"], !logo.isEmpty {
            guard logo.count <= 500, logo.hasPrefix("https://") || (logo.hasPrefix("/") && !logo.hasPrefix("//")),
                URL(string: logo) != nil, !logo.contains(where: { $0 == "\"" || $0 == " " || $0 == "<" })
            else { throw Invalid(description: "FULFILMENT_BRAND_LOGO_URL: an https:// address or a path on this site.") }
            brand.logoURL = logo
        }
        if let colour = environment["FULFILMENT_BRAND_COLOUR"], !colour.isEmpty {
            guard let ratio = contrastAgainstWhite(colour) else {
                throw Invalid(description: "FULFILMENT_BRAND_COLOUR: a colour as #rrggbb, such as #0a4b9c.")
            }
            guard ratio >= 4.5 else {
                throw Invalid(
                    description:
                        "FULFILMENT_BRAND_COLOUR: \(colour) is \(String(format: "%.1f", ratio)):1 against white; links and buttons need 4.5:1. Choose a darker one."
                )
            }
            brand.colour = colour.lowercased()
        }
        return brand
    }

    /// The origin of an https logo, for the pages' image policy; nil for a path on this site.
    package var logoOrigin: String? {
        guard let logoURL, logoURL.hasPrefix("https://"), let url = URL(string: logoURL), let host = url.host else { return nil }
        return "https://\(host)\(url.port.map { ":\($0)" } ?? "")"
    }

    /// WCAG's contrast ratio of `#rrggbb` against white; nil when it is not one.
    static func contrastAgainstWhite(_ hex: String) -> Double? {
        guard hex.count == 7, hex.first == "#", let value = UInt32(hex.dropFirst(), radix: 16) else { return nil }
        func channel(_ shift: UInt32) -> Double {
            let c = Double((value >> shift) & 0xFF) / 255
            return c <= 0.03928 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        let luminance = 0.2126 * channel(16) + 0.7152 * channel(8) + 0.0722 * channel(0)
        return 1.05 / (luminance + 0.05)
    }
}
