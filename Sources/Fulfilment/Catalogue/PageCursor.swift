import Foundation

/// An opaque keyset cursor: the sort key of the last row of a page, base64url-encoded JSON.
///
/// Each listing decodes only its own shape, so a cursor handed to the wrong listing (or
/// tampered with) is `invalid_cursor`, never a 500.
enum PageCursor {
    /// Search results: ordered by score (descending), then id.
    struct Ranked: Codable, Equatable {
        /// The Float score's bit pattern, so the keyset comparison is exact.
        var s: UInt32
        var id: UUID
        var score: Float { Float(bitPattern: s) }
        init<Tag>(score: Float, id: ID<Tag>) {
            self.s = score.bitPattern
            self.id = id.rawValue
        }
    }

    /// Listings ordered by a text key, then id (the catalogue by name, the stock report).
    struct Named: Codable, Equatable {
        var n: String
        var id: UUID
    }

    /// Favourites: newest first.
    struct Dated: Codable, Equatable {
        /// Microseconds since 1970, as PostgreSQL keeps them (a Date would round).
        var t: Int64
        var id: UUID
    }

    static func encode(_ value: some Encodable) -> String {
        let data = (try? JSONEncoder().encode(value)) ?? Data()
        return data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func decode<T: Decodable>(_ text: String?, as type: T.Type) throws(CatalogueError) -> T? {
        guard let text, !text.isEmpty else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard text.count <= 512, let data = Data(base64Encoded: base64),
            let value = try? JSONDecoder().decode(T.self, from: data)
        else { throw .invalidCursor }
        return value
    }
}
