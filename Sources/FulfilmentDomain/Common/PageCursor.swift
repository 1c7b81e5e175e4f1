import Foundation

/// An opaque keyset cursor: the sort key of the last row of a page, base64url-encoded JSON.
///
/// Each listing decodes only its own shape, so a cursor handed to the wrong listing (or
/// tampered with) is `invalid_cursor`, never a 500.
package enum PageCursor {
    /// Search results: ordered by score (descending), then id.
    package struct Ranked: Codable, Equatable {
        /// The Float score's bit pattern, so the keyset comparison is exact.
        package var s: UInt32
        package var id: UUID
        package var score: Float { Float(bitPattern: s) }
        package init<Tag>(score: Float, id: ID<Tag>) {
            self.s = score.bitPattern
            self.id = id.rawValue
        }
    }

    /// Listings ordered by a text key, then id (the catalogue by name, the stock report).
    package struct Named: Codable, Equatable {
        package var n: String
        package var id: UUID
    }

    /// Favourites: newest first.
    package struct Dated: Codable, Equatable {
        /// Microseconds since 1970, as PostgreSQL keeps them (a Date would round).
        package var t: Int64
        package var id: UUID

        package init(t: Int64, id: UUID) {
            self.t = t
            self.id = id
        }

        /// Only a moment a page could have given out (`moments`): a forged one is `invalid_cursor`.
        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            t = try container.decode(Int64.self, forKey: .t)
            id = try container.decode(UUID.self, forKey: .id)
            guard PageCursor.moments.contains(t) else {
                throw DecodingError.dataCorruptedError(forKey: .t, in: container, debugDescription: "not a moment a page gives out")
            }
        }
    }

    /// The product listing (`GET /v1/products`): the moment of its first page, what it lists
    /// (its sort and a fingerprint of its filters), and the last row's sort key, of which only
    /// the sort's own is set. Every page is read as of `a`, so changes between pages never make
    /// a row show twice or never.
    package struct Listing: Codable, Equatable {
        /// The sort's name (`ProductSort`).
        package var k: String
        /// `ProductSearch.fingerprint` of the listing it was given out by.
        package var f: UInt64
        /// The first page's moment, microseconds since 1970.
        package var a: Int64
        /// relevance: the Float score's bit pattern (exact).
        package var s: UInt32?
        /// name: lower(name).
        package var n: String?
        /// price: the price at `a`, minor units.
        package var p: Int64?
        /// newest: when it was added, microseconds since 1970.
        package var t: Int64?
        package var id: UUID

        /// The cursor of `search`, or nil for its first page; `invalid_cursor` when the text is
        /// not one this listing gave out (another sort, other filters, or its key missing).
        package static func decode(for search: ProductSearch) throws(CatalogueError) -> Listing? {
            guard let cursor = try PageCursor.decode(search.cursor, as: Listing.self) else { return nil }
            let hasKey =
                switch ProductSort(rawValue: cursor.k) {
                case .relevance: cursor.s != nil
                case .name: true  // n left out of a long name's cursor: the row's id finds it
                case .price: cursor.p != nil
                case .newest: cursor.t != nil
                case nil: false
                }
            guard cursor.k == search.sort.rawValue, cursor.f == search.fingerprint, hasKey,
                PageCursor.moments.contains(cursor.a), cursor.t.map(PageCursor.moments.contains) ?? true,
                cursor.p.map((0...Money.maximumPrice).contains) ?? true
            else { throw .invalidCursor }
            return cursor
        }
    }

    /// The moments a cursor may name, in microseconds since 1970: up to the end of the year 9999.
    /// A forged one beyond (Int64.max) overflowed PostgreSQL's interval arithmetic: a 500 (issue 41).
    package static let moments: ClosedRange<Int64> = 0...(Int64(LocalDate.lastSecond) * 1_000_000 + 999_999)

    package static func encode(_ value: some Encodable) -> String {
        let data = (try? JSONEncoder().encode(value)) ?? Data()
        return data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    package static func decode<T: Decodable>(_ text: String?, as type: T.Type) throws(CatalogueError) -> T? {
        guard let text, !text.isEmpty else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard text.count <= 512, let data = Data(base64Encoded: base64),
            let value = try? JSONDecoder().decode(T.self, from: data)
        else { throw .invalidCursor }
        return value
    }
}
