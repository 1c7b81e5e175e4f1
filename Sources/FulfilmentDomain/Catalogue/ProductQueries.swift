import Foundation
import Logging
import PostgresNIO

/// The SQL of the catalogue: search, lookups and the manager's edits.
package enum ProductQueries {
    /// At most this many words of a query are searched for (the rest are ignored): each is one
    /// part of the statement, and 100 characters rarely hold more.
    package static let maxSearchWords = 8

    /// Typo-tolerant search, best first, or a listing of the catalogue sorted by name, price or
    /// newest; every filter and sort combines with the text and the store.
    ///
    /// Each page is read as of the first page's moment (the cursor's `asOf`): products added to
    /// the catalogue (or, with a store, to its range) after it are left out, and `price` orders
    /// by the prices then (`store_price_at`, from the price history of migration 032), so no
    /// product shows twice or never while rows are added and prices change between pages. The
    /// price shown is today's (`store_price`).
    package static func search(_ search: ProductSearch, on database: Database, logger: Logger) async throws -> Page<ProductRecord> {
        let after = try PageCursor.Listing.decode(for: search)
        // Discontinued products have no search words (migration 016): they are found by a part of
        // their name or brand, or their SKU or barcode, in `listed`.
        if search.sort == .relevance, !search.discontinued {
            return try await ranked(search, after: after, on: database.client, logger: logger)
        }
        return try await listed(search, after: after, on: database.client, logger: logger)
    }

    /// Typo-tolerant search, best first.
    ///
    /// One statement, planned by PostgreSQL as it sees fit (migration 016 has the tables and
    /// why, `sql/routines/search_word*.sql` the functions): for each query word, the catalogue words like it (a KNN scan of the
    /// small `search_vocabulary`); the products having one of them for every query word (`&&`
    /// on the GIN index of `product_search`, ANDed in one bitmap); ranked by the sum of each
    /// word's best weight, then id. Only the page's rows are joined to products, stock, aisles
    /// and images: with a store, ranked rows are checked against its stock in rank order until
    /// the page is full.
    package static func ranked(
        _ search: ProductSearch, after: PageCursor.Listing?, on client: PostgresClient, logger: Logger
    ) async throws -> Page<ProductRecord> {
        let words = searchWords(search.text)
        let storeFilter = search.storeID != nil
        let afterScore = after?.s.map(Float.init(bitPattern:))
        // One part per query word; each is a constant naming its word by position in `query.words`
        // (bound). No words (only punctuation) finds nothing, still in the one statement.
        let positions = words.indices.map { $0 + 1 }
        let matches = positions.map { ",\n w\($0) AS MATERIALIZED (SELECT m.* FROM query q, search_word_matches(q.words[\($0)]) m)" }.joined()
        let found = words.isEmpty ? "false" : positions.map { "ps.words && (SELECT words FROM w\($0))" }.joined(separator: " AND ")
        let weight =
            words.isEmpty
            ? "0"
            : positions.map {
                "search_word_weight(ps.words, (SELECT exact FROM w\($0)), (SELECT near FROM w\($0)), (SELECT single FROM w\($0)))"
            }.joined(separator: " + ")
        // `text` rides along unused so PostgreSQL refuses text it cannot store (a NUL byte: 422
        // invalid_text), as for any other field. `OFFSET 0` keeps the ranking a subquery of its
        // own, so each candidate's score is computed once (not again for the cursor's filter).
        // Without a store or category filter the ranking stops at the page (top-N sort); with
        // one, all candidates are sorted and the joins below read them in order until the page
        // is full. Products made after the listing's moment are left out in the ranking itself.
        let rows = try await client.read(
            """
            WITH query AS MATERIALIZED (SELECT \(words)::text[] AS words, \(search.text)::text AS text),
            listing AS MATERIALIZED (SELECT coalesce(timestamptz 'epoch' + \(after?.a)::int8 * interval '1 microsecond', now()) AS at)\(unescaped: matches)
            SELECT \(unescaped: ProductQueries.columns), r.score, \(unescaped: asOfMicrosSQL) AS as_of
            FROM listing l, (
                SELECT x.id, x.score
                FROM (
                    SELECT ps.product_id AS id, (\(unescaped: weight) + 0.1::float8 / (1 + cardinality(ps.words)))::real AS score
                    FROM product_search ps
                    WHERE \(unescaped: found)
                      AND (SELECT p0.created_at FROM products p0 WHERE p0.id = ps.product_id) <= (SELECT at FROM listing)
                    OFFSET 0
                ) x
                WHERE \(after == nil) OR x.score < \(afterScore ?? 0) OR (x.score = \(afterScore ?? 0) AND x.id > \(after?.id ?? UUID()))
                ORDER BY x.score DESC, x.id
                LIMIT CASE WHEN \(storeFilter) OR \(search.category)::text IS NOT NULL THEN NULL ELSE \(search.limit + 1) END
            ) r
            JOIN products p ON p.id = r.id
            LEFT JOIN stock s ON s.product_id = p.id AND s.store_id = \(search.storeID?.rawValue)
            \(unescaped: ProductQueries.extraJoins)
            WHERE \(unescaped: search.discontinued ? "p.discontinued" : "NOT p.discontinued")
              AND (\(search.category)::text IS NULL OR p.category = \(search.category))
              AND (NOT \(storeFilter) OR s.added_at <= l.at)
              AND (NOT \(search.onSale) OR \(unescaped: onSaleSQL))
              AND (NOT \(search.newArrivals) OR \(unescaped: newArrivalSQL))
            ORDER BY r.score DESC, r.id
            LIMIT \(search.limit + 1)
            """, logger: logger)
        var result: [(ProductRecord, Float, Int64)] = []
        for try await row in rows {
            let r = row.makeRandomAccess()
            result.append((try record(row), try r["score"].decode(Float.self), try r["as_of"].decode(Int64.self)))
        }
        let page = Array(result.prefix(search.limit))
        guard result.count > search.limit, let last = page.last else { return Page(items: page.map(\.0), nextCursor: nil) }
        let cursor = PageCursor.Listing(k: search.sort.rawValue, f: search.fingerprint, a: last.2, s: last.1.bitPattern, id: last.0.id.rawValue)
        return Page(items: page.map(\.0), nextCursor: PageCursor.encode(cursor))
    }

    /// The catalogue (or a store's range) by name (case-insensitive), price at the store
    /// (cheapest first) or newest first, each then by id, paged on that key and the id.
    package static func listed(
        _ search: ProductSearch, after: PageCursor.Listing?, on client: PostgresClient, logger: Logger
    ) async throws -> Page<ProductRecord> {
        let storeFilter = search.storeID != nil
        // With text, only what search finds (the same match as `ranked`, without its ranking).
        let words = searchWords(search.text)
        let positions = words.indices.map { $0 + 1 }
        let matches = positions.map { ",\n w\($0) AS MATERIALIZED (SELECT m.* FROM query q, search_word_matches(q.words[\($0)]) m)" }.joined()
        let found =
            search.text.isEmpty
            ? "true"
            : search.discontinued
                ? "(strpos(lower(p.name), q.text) > 0 OR strpos(lower(p.brand), q.text) > 0 OR lower(p.sku) = q.text OR p.barcode = q.text)"
                : words.isEmpty
                    ? "false"
                    : "EXISTS (SELECT 1 FROM product_search ps WHERE ps.product_id = p.id AND "
                        + positions.map { "ps.words && (SELECT words FROM w\($0))" }.joined(separator: " AND ") + ")"
        // Sorting by price reads the store's whole range at the listing's moment in one set-based
        // pass (`store_prices_at`), not two lookups a row; only what is on sale is read from the
        // store's running sales (`store_sale_prices_at`, the same prices), not its whole range.
        // Without either, no prices: the store argument is NULL, and the function reads nothing.
        // The arguments are the listing's own bound values, not `(SELECT ... FROM listing)`:
        // PostgreSQL inlines a SQL function only when no argument is a subquery, and only inlined
        // can the offers be read in price order from the index, stopping at the page.
        let pricesWanted = search.sort == .price || search.onSale
        let pricesJoin = search.onSale ? "JOIN store_sale_prices_at" : "LEFT JOIN store_prices_at"
        // The sort key and the cursor's condition are fixed text chosen by the sort (never a
        // client's); the cursor's values are bound in `c`.
        let key: String
        let past: String
        switch search.sort {
        case .price:
            key = "pa.price_amount"
            past = "(\(key), p.id) > (c.p, c.id)"
        case .newest:
            key = storeFilter ? "s.added_at" : "p.created_at"
            past = "(\(key) < c.t OR (\(key) = c.t AND p.id > c.id))"
        case .name, .relevance:
            key = "lower(p.name)"
            past = "(\(key), p.id) > (coalesce(c.n, (SELECT lower(p1.name) FROM products p1 WHERE p1.id = c.id)), c.id)"
        }
        let order = search.sort == .newest ? "\(key) DESC, p.id" : "\(key), p.id"
        // A time goes into the cursor as exact microseconds (a Date would round).
        let keyOut = search.sort == .newest ? "(extract(epoch FROM \(key)) * 1000000)::int8" : key
        let rows = try await client.read(
            """
            WITH query AS MATERIALIZED (SELECT \(words)::text[] AS words, \(search.text)::text AS text),
            listing AS MATERIALIZED (
                SELECT coalesce(timestamptz 'epoch' + \(after?.a)::int8 * interval '1 microsecond', now()) AS at,
                       \(search.storeID?.rawValue)::uuid AS store),
            c AS MATERIALIZED (
                SELECT \(after?.n)::text AS n, \(after?.p)::int8 AS p,
                       timestamptz 'epoch' + \(after?.t)::int8 * interval '1 microsecond' AS t, \(after?.id)::uuid AS id)\(unescaped: matches)
            SELECT \(unescaped: ProductQueries.columns), \(unescaped: keyOut) AS sort_key, \(unescaped: asOfMicrosSQL) AS as_of
            FROM listing l, c, query q, products p
            LEFT JOIN stock s ON s.product_id = p.id AND s.store_id = \(search.storeID?.rawValue)
            \(unescaped: pricesJoin)(
                CASE WHEN \(pricesWanted) THEN \(search.storeID?.rawValue)::uuid END,
                coalesce(timestamptz 'epoch' + \(after?.a)::int8 * interval '1 microsecond', now())) pa ON pa.product_id = p.id
            \(unescaped: ProductQueries.extraJoins)
            WHERE \(unescaped: search.discontinued ? "p.discontinued" : "NOT p.discontinued")
              AND (\(search.category)::text IS NULL OR p.category = \(search.category))
              AND (CASE WHEN \(storeFilter) THEN s.added_at <= l.at ELSE p.created_at <= l.at END)
              AND (NOT \(search.newArrivals) OR \(unescaped: newArrivalSQL))
              AND \(unescaped: found)
              AND (c.id IS NULL OR \(unescaped: past))
            ORDER BY \(unescaped: order)
            LIMIT \(search.limit + 1)
            """, logger: logger)
        var result: [(ProductRecord, PostgresRandomAccessRow)] = []
        for try await row in rows {
            result.append((try record(row), row.makeRandomAccess()))
        }
        let page = Array(result.prefix(search.limit))
        guard result.count > search.limit, let (record, last) = page.last else { return Page(items: page.map(\.0), nextCursor: nil) }
        var cursor = PageCursor.Listing(
            k: search.sort.rawValue, f: search.fingerprint, a: try last["as_of"].decode(Int64.self), id: record.id.rawValue)
        switch search.sort {
        case .price: cursor.p = try last["sort_key"].decode(Int64.self)
        case .newest: cursor.t = try last["sort_key"].decode(Int64.self)
        case .name, .relevance: cursor.n = try last["sort_key"].decode(String.self)
        }
        var text = PageCursor.encode(cursor)
        if text.count > 512 {
            // A long name: the next page finds it by the row's id instead.
            cursor.n = nil
            text = PageCursor.encode(cursor)
        }
        return Page(items: page.map(\.0), nextCursor: text)
    }

    /// The listing's moment (`listing.at`: the cursor's, or now for a first page) as
    /// microseconds since 1970, for the next cursor.
    package static let asOfMicrosSQL = "(extract(epoch FROM l.at) * 1000000)::int8"

    /// A sale running at the store at the listing's moment makes the product cheaper than its
    /// regular price then.
    package static let onSaleSQL = "store_price_at(p.id, s.store_id, l.at) < store_regular_price_at(p.id, s.store_id, l.at)"

    /// Added to the store's range within its new-arrival window, counted back from the listing's
    /// moment.
    package static let newArrivalSQL = "s.added_at > l.at - (SELECT st.new_arrival_window FROM stores st WHERE st.id = s.store_id)"

    /// The words of a search as `search_words` (`sql/routines/search_words.sql`) splits names and brands: lower
    /// case, apostrophes dropped, split on anything not a letter or digit, each word once; at
    /// most ``maxSearchWords``.
    package static func searchWords(_ text: String) -> [String] {
        var words: [String] = []
        var word = String.UnicodeScalarView()
        func endWord() {
            let done = String(word)
            if !done.isEmpty, !words.contains(done) { words.append(done) }
            word = String.UnicodeScalarView()
        }
        for scalar in text.lowercased().unicodeScalars {
            if scalar == "'" || scalar == "\u{2019}" { continue }
            if scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                word.append(scalar)
            } else {
                endWord()
            }
        }
        endWord()
        return Array(words.prefix(maxSearchWords))
    }

    /// One product (discontinued too), with its stock at `storeID` when given, and its images.
    package static func product(id: ProductID, store storeID: StoreID?, on client: PostgresClient, logger: Logger) async throws -> ProductRecord? {
        let rows = try await client.read(
            """
            SELECT \(unescaped: ProductQueries.columns), \(unescaped: gallerySQL) AS gallery
            FROM products p
            LEFT JOIN stock s ON s.product_id = p.id AND s.store_id = \(storeID?.rawValue)
            \(unescaped: ProductQueries.extraJoins)
            WHERE p.id = \(id.rawValue)
            """, logger: logger)
        for try await row in rows { return try recordWithGallery(row) }
        return nil
    }

    /// A product's own page in one statement: the product at `store` by its address, with its
    /// images in order; nil when no product has the address.
    package static func page(slug: String, store storeID: StoreID?, on client: PostgresClient, logger: Logger) async throws -> ProductRecord? {
        let rows = try await client.read(
            """
            SELECT \(unescaped: ProductQueries.columns), \(unescaped: gallerySQL) AS gallery
            FROM products p
            LEFT JOIN stock s ON s.product_id = p.id AND s.store_id = \(storeID?.rawValue)
            \(unescaped: ProductQueries.extraJoins)
            WHERE p.slug = \(slug)
            """, logger: logger)
        for try await row in rows { return try recordWithGallery(row) }
        return nil
    }

    /// A single product's images in order, as JSON (`gallery`): listings leave it out.
    static let gallerySQL = """
        (SELECT json_agg(json_build_object('position', g.position, 'altText', g.alt_text) ORDER BY g.position)
           FROM product_images g WHERE g.product_id = p.id)::text
        """

    private static func recordWithGallery(_ row: PostgresRow) throws -> ProductRecord {
        var product = try record(row)
        if let json = try row.makeRandomAccess()["gallery"].decode(String?.self) {
            product.gallery = try JSONDecoder().decode([ProductRecord.GalleryImage].self, from: Data(json.utf8))
        }
        return product
    }

    package static func product(barcode: Barcode, store storeID: StoreID?, on client: PostgresClient, logger: Logger) async throws -> ProductRecord? {
        let rows = try await client.read(
            """
            SELECT \(unescaped: ProductQueries.columns)
            FROM products p
            LEFT JOIN stock s ON s.product_id = p.id AND s.store_id = \(storeID?.rawValue)
            \(unescaped: ProductQueries.extraJoins)
            WHERE p.barcode = \(barcode.digits)
            """, logger: logger)
        for try await row in rows { return try record(row) }
        return nil
    }

    package static func insert(_ draft: ProductDraft, on client: PostgresClient, logger: Logger) async throws -> ProductID {
        let id = ProductID(UUID())
        _ = try await CatalogueError.mappingDatabaseErrors {
            try await client.run(
                """
                INSERT INTO products (id, sku, barcode, name, brand, description, category, price_amount, currency, size, tax_class)
                VALUES (\(id.rawValue), \(draft.sku), \(draft.barcode?.digits), \(draft.name), \(draft.brand), \(draft.description),
                        \(draft.category), \(draft.price.amount), \(draft.price.currency), \(draft.size), \(draft.taxClass.rawValue))
                """, logger: logger)
        }
        return id
    }

    /// Applies the fields `change` has; returns false when there is no such product.
    package static func update(id: ProductID, _ change: ProductChange, on client: PostgresClient, logger: Logger) async throws -> Bool {
        try await CatalogueError.mappingDatabaseErrors {
            let rows = try await client.run(
                """
                UPDATE products SET
                    sku = COALESCE(\(change.sku), sku),
                    barcode = CASE WHEN \(change.barcode != nil) THEN \(change.barcode??.digits) ELSE barcode END,
                    name = COALESCE(\(change.name), name),
                    brand = COALESCE(\(change.brand), brand),
                    description = COALESCE(\(change.description), description),
                    category = COALESCE(\(change.category), category),
                    size = COALESCE(\(change.size), size),
                    tax_class = COALESCE(\(change.taxClass?.rawValue), tax_class),
                    price_amount = COALESCE(\(change.price?.amount), price_amount),
                    currency = COALESCE(\(change.price?.currency), currency),
                    discontinued = COALESCE(\(change.discontinued), discontinued),
                    updated_at = now()
                WHERE id = \(id.rawValue)
                RETURNING id
                """, logger: logger)
            for try await _ in rows { return true }
            return false
        }
    }

    /// The columns ``record(_:)`` reads (a constant, used with `\(unescaped:)`). The query joins
    /// `products p`, `stock s` (for the store asked about, or none) and ``extraJoins``. The price
    /// is the store's (`store_price`: its own, or else the catalogue's) where the row has a store.
    package static let columns = """
        p.id AS p_id, p.sku, p.barcode, p.name AS p_name, p.brand, p.description, p.category, p.size, p.tax_class,
        store_price(p.id, s.store_id) AS price_amount, p.currency::text AS currency, p.discontinued, img.product_id IS NOT NULL AS has_image,
        store_regular_price(p.id, s.store_id) AS regular_amount, store_sale_ends_at(p.id, s.store_id) AS sale_ends_at,
        p.rating_count, p.rating_sum, p.slug, s.store_id, s.on_hand, s.reserved, s.min_supply,
        a.id AS a_id, a.code AS a_code, a.name AS a_name, a.zone, s.bay, s.shelf
        """

    /// The aisle and image joins ``columns`` reads, after the `stock s` join.
    package static let extraJoins = """
        LEFT JOIN aisles a ON a.id = s.aisle_id
        LEFT JOIN product_images img ON img.product_id = p.id AND img.position = 0
        """

    /// A product (and its stock, when the row has a store's) from a row of ``columns``.
    package static func record(_ row: PostgresRow) throws -> ProductRecord {
        let r = row.makeRandomAccess()
        var stock: StockRecord?
        if let storeID = try r["store_id"].decode(UUID?.self) {
            var location: LocationRecord?
            if let aisleID = try r["a_id"].decode(UUID?.self) {
                location = LocationRecord(
                    aisleID: AisleID(aisleID), aisleCode: try r["a_code"].decode(String.self), aisleName: try r["a_name"].decode(String.self),
                    zone: try r["zone"].decode(String.self), bay: try r["bay"].decode(Int?.self), shelf: try r["shelf"].decode(String?.self))
            }
            stock = StockRecord(
                storeID: StoreID(storeID), onHand: try r["on_hand"].decode(Int.self), reserved: try r["reserved"].decode(Int.self),
                minSupply: try r["min_supply"].decode(Int.self), location: location)
        }
        return ProductRecord(
            id: ProductID(try r["p_id"].decode(UUID.self)), sku: try r["sku"].decode(String.self),
            barcode: try r["barcode"].decode(String?.self), name: try r["p_name"].decode(String.self),
            brand: try r["brand"].decode(String.self), description: try r["description"].decode(String.self),
            category: try r["category"].decode(String.self), size: try r["size"].decode(String.self),
            taxClass: try r["tax_class"].stored(TaxClass.self),
            priceAmount: try r["price_amount"].decode(Int64.self),
            currency: try r["currency"].decode(String.self), discontinued: try r["discontinued"].decode(Bool.self),
            hasImage: try r["has_image"].decode(Bool.self), stock: stock,
            regularAmount: try r["regular_amount"].decode(Int64?.self), saleEndsAt: try r["sale_ends_at"].decode(Date?.self),
            rating: Rating(count: Int(try r["rating_count"].decode(Int32.self)), sum: Int(try r["rating_sum"].decode(Int32.self))),
            slug: try r["slug"].decode(String.self))
    }
}
