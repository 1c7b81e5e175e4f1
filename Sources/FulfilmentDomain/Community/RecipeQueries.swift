import Foundation
import Logging
import PostgresNIO

/// The SQL of recipes (`recipes`, `recipe_ingredients`, migration 038) and of putting one in the
/// cart (`add_recipe_to_cart`). Reads bind the `Viewer` into `content_visible`.
package enum RecipeQueries {
    /// The columns ``recipe(_:)`` reads, over `recipes r LEFT JOIN users u` (the author).
    package static let columns = """
        r.id, r.store_id, r.author_id, coalesce(u.name, 'A former customer') AS author_name, r.title, r.body_markdown, r.servings,
        (SELECT count(*) FROM comments c WHERE c.recipe_id = r.id AND c.hidden_at IS NULL)::int4 AS comment_count,
        r.hidden_at IS NOT NULL AS hidden, r.created_at, r.updated_at,
        EXISTS (SELECT 1 FROM content_images ci WHERE ci.recipe_id = r.id) AS has_image
        """

    /// The listing's keyset: relevance (negated rank) with a query, else newest (negated
    /// microseconds), then id.
    package struct Cursor: Codable {
        package var k: Double
        package var id: UUID
    }

    package static func search(_ search: Recipes.Search, viewer: Viewer, on client: PostgresClient, logger: Logger) async throws -> Page<Recipe> {
        let after = try PageCursor.decode(search.cursor, as: Cursor.self)
        let rows = try await client.run(
            """
            WITH q AS (SELECT websearch_to_tsquery('english', coalesce(\(search.text), '')) AS query),
            found AS (
                SELECT r.*, CASE WHEN \(search.text)::text IS NULL THEN -(extract(epoch FROM r.created_at) * 1000000)::float8
                                 ELSE -ts_rank(r.search, q.query)::float8 END AS k
                  FROM recipes r CROSS JOIN q
                 WHERE content_visible(r.hidden_at, r.author_id, r.store_id, \(viewer: viewer))
                   AND (\(search.text)::text IS NULL OR r.search @@ q.query)
                   AND (\(search.product?.rawValue)::uuid IS NULL
                        OR EXISTS (SELECT 1 FROM recipe_ingredients g WHERE g.recipe_id = r.id AND g.product_id = \(search.product?.rawValue))))
            SELECT \(unescaped: columns), r.k
              FROM found r LEFT JOIN users u ON u.id = r.author_id
             WHERE \(after == nil) OR (r.k, r.id) > (\(after?.k ?? 0), \(after?.id ?? UUID()))
             ORDER BY r.k, r.id
             LIMIT \(search.limit + 1)
            """, logger: logger)
        var found: [(Recipe, Double)] = []
        for try await row in rows {
            let r = row.makeRandomAccess()
            found.append((try recipe(r), try r["k"].decode(Double.self)))
        }
        let page = Array(found.prefix(search.limit))
        let next = found.count > search.limit ? page.last.map { PageCursor.encode(Cursor(k: $0.1, id: $0.0.id.rawValue)) } : nil
        let recipes = try await withIngredients(page.map(\.0), at: search.store, on: client, logger: logger)
        return Page(items: recipes, nextCursor: next)
    }

    package static func recipe(_ id: RecipeID, at store: StoreID?, viewer: Viewer, on client: PostgresClient, logger: Logger) async throws -> Recipe?
    {
        let rows = try await client.run(
            """
            SELECT \(unescaped: columns) FROM recipes r LEFT JOIN users u ON u.id = r.author_id
             WHERE r.id = \(id.rawValue) AND content_visible(r.hidden_at, r.author_id, r.store_id, \(viewer: viewer))
            """, logger: logger)
        guard let row = rows.collect().first else { return nil }
        return try await withIngredients([try recipe(row.makeRandomAccess())], at: store, on: client, logger: logger).first
    }

    /// The recipes with their ingredients (and, with a store, what it carries of them), in one read.
    private static func withIngredients(_ recipes: [Recipe], at store: StoreID?, on client: PostgresClient, logger: Logger) async throws
        -> [Recipe]
    {
        guard !recipes.isEmpty else { return [] }
        let rows = try await client.run(
            """
            SELECT g.recipe_id, g.position, g.text, g.product_id, p.name AS product_name, g.quantity,
                   CASE WHEN \(store?.rawValue)::uuid IS NOT NULL AND g.product_id IS NOT NULL
                        THEN st.product_id IS NOT NULL AND NOT p.discontinued END AS carried
              FROM recipe_ingredients g
              LEFT JOIN products p ON p.id = g.product_id
              LEFT JOIN stock st ON st.store_id = \(store?.rawValue) AND st.product_id = g.product_id
             WHERE g.recipe_id = ANY(\(recipes.map(\.id.rawValue)))
             ORDER BY g.recipe_id, g.position
            """, logger: logger)
        var byRecipe: [UUID: [Recipe.Ingredient]] = [:]
        for try await row in rows {
            let r = row.makeRandomAccess()
            byRecipe[try r["recipe_id"].decode(UUID.self), default: []].append(
                Recipe.Ingredient(
                    index: Int(try r["position"].decode(Int32.self)), text: try r["text"].decode(String.self),
                    product: try r["product_id"].decode(UUID?.self).map(ProductID.init), productName: try r["product_name"].decode(String?.self),
                    quantity: try r["quantity"].decode(Int32?.self).map(Int.init), carried: try r["carried"].decode(Bool?.self)))
        }
        return recipes.map { recipe in
            var recipe = recipe
            recipe.ingredients = byRecipe[recipe.id.rawValue] ?? []
            if let store { recipe.carried = (store, recipe.ingredients.filter { $0.carried == true }.count, recipe.ingredients.count) }
            return recipe
        }
    }

    /// Writes the recipe and its ingredients; a customer's without a store is at the store they
    /// chose (`cart_store`), if any. An unknown product or store is `invalidField` (foreign keys).
    package static func create(
        _ draft: Recipe.Draft, at store: StoreID?, by author: UserID, on connection: PostgresConnection, logger: Logger
    ) async throws -> RecipeID {
        let ingredients = draft.ingredients
        let rows = try await ContentError.mappingDatabaseErrors {
            try await connection.run(
                """
                WITH r AS (
                    INSERT INTO recipes (store_id, author_id, title, body_markdown, servings, search)
                    VALUES (coalesce(\(store?.rawValue), cart_store(\(author.rawValue))), \(author.rawValue), \(draft.title),
                            \(draft.bodyMarkdown), \(draft.servings),
                            setweight(to_tsvector('english', \(draft.title)), 'A')
                            || setweight(to_tsvector('english', \(draft.searchIngredients)), 'B')
                            || setweight(to_tsvector('english', \(draft.bodyMarkdown)), 'C'))
                    RETURNING id),
                g AS (
                    INSERT INTO recipe_ingredients (recipe_id, position, text, product_id, quantity)
                    SELECT r.id, u.i - 1, u.text, nullif(u.product, '')::uuid, nullif(u.quantity, 0)
                      FROM r, unnest(\(ingredients.map(\.text)), \(ingredients.map { $0.product?.description ?? "" }),
                                     \(ingredients.map { Int32($0.quantity ?? 0) })) WITH ORDINALITY AS u(text, product, quantity, i))
                SELECT id FROM r
                """, logger: logger
            ).collect()
        }
        return RecipeID(try rows[0].decode(UUID.self))
    }

    /// Rewrites its author's recipe, its ingredients replaced.
    package static func update(
        _ id: RecipeID, _ draft: Recipe.Draft, by author: UserID, on connection: PostgresConnection, logger: Logger
    ) async throws -> OwnDeletion {
        let rows = try await connection.run(
            """
            WITH found AS (SELECT r.id, coalesce(r.author_id = \(author.rawValue), false) AS own FROM recipes r WHERE r.id = \(id.rawValue) FOR UPDATE),
            changed AS (
                UPDATE recipes SET title = \(draft.title), body_markdown = \(draft.bodyMarkdown), servings = \(draft.servings),
                       search = setweight(to_tsvector('english', \(draft.title)), 'A')
                                || setweight(to_tsvector('english', \(draft.searchIngredients)), 'B')
                                || setweight(to_tsvector('english', \(draft.bodyMarkdown)), 'C'),
                       updated_at = now()
                  FROM found f WHERE recipes.id = f.id AND f.own RETURNING recipes.id)
            SELECT f.own FROM found f
            """, logger: logger)
        guard let own = try rows.collect().first?.decode(Bool.self) else { return .notFound }
        guard own else { return .notAuthor }
        let ingredients = draft.ingredients
        try await connection.run("DELETE FROM recipe_ingredients WHERE recipe_id = \(id.rawValue)", logger: logger)
        _ = try await ContentError.mappingDatabaseErrors {
            try await connection.run(
                """
                INSERT INTO recipe_ingredients (recipe_id, position, text, product_id, quantity)
                SELECT \(id.rawValue), u.i - 1, u.text, nullif(u.product, '')::uuid, nullif(u.quantity, 0)
                  FROM unnest(\(ingredients.map(\.text)), \(ingredients.map { $0.product?.description ?? "" }),
                              \(ingredients.map { Int32($0.quantity ?? 0) })) WITH ORDINALITY AS u(text, product, quantity, i)
                """, logger: logger)
        }
        return .deleted
    }

    package static func delete(_ id: RecipeID, by user: UserID, on client: PostgresClient, logger: Logger) async throws -> OwnDeletion {
        let rows = try await client.run(
            """
            WITH found AS (SELECT r.id, coalesce(r.author_id = \(user.rawValue), false) AS own FROM recipes r WHERE r.id = \(id.rawValue)),
            gone AS (DELETE FROM recipes r USING found f WHERE r.id = f.id AND f.own RETURNING r.id)
            SELECT f.own FROM found f
            """, logger: logger)
        guard let own = try rows.collect().first?.decode(Bool.self) else { return .notFound }
        return own ? .deleted : .notAuthor
    }

    package enum CartOutcome: Sendable {
        case done(RecipeToCart)
        case refused(String, index: Int?)
    }

    package static func addToCart(
        _ id: RecipeID, servings: Int?, skip: [Int], customer: UserID, on client: PostgresClient, logger: Logger
    ) async throws -> CartOutcome {
        let rows = try await client.run(
            """
            SELECT add_recipe_to_cart(\(customer.rawValue), \(id.rawValue), \(servings.map(Int32.init)), \(skip.map(Int32.init)))::text
            """, logger: logger)
        let data = Data(try rows.collect()[0].decode(String.self).utf8)
        struct Refusal: Decodable {
            package var code: String?
            package var index: Int?
        }
        let refusal = try JSONDecoder().decode(Refusal.self, from: data)
        if let code = refusal.code { return .refused(code, index: refusal.index) }
        return .done(try JSONDecoder().decode(RecipeToCart.self, from: data))
    }

    /// The recipe's products this store carries, in aisle walk order (unplaced last), each with
    /// its ingredient; nil when the recipe is not there for this viewer.
    package static func locate(
        _ id: RecipeID, at store: StoreID, viewer: Viewer, on client: PostgresClient, logger: Logger
    ) async throws -> [(ProductRecord, Recipe.Ingredient)]? {
        guard try await recipe(id, at: nil, viewer: viewer, on: client, logger: logger) != nil else { return nil }
        let rows = try await client.run(
            """
            SELECT \(unescaped: ProductQueries.columns), g.position AS g_position, g.text AS g_text, g.quantity AS g_quantity
              FROM recipe_ingredients g
              JOIN products p ON p.id = g.product_id
              JOIN stock s ON s.store_id = \(store.rawValue) AND s.product_id = p.id
              \(unescaped: ProductQueries.extraJoins)
             WHERE g.recipe_id = \(id.rawValue) AND NOT p.discontinued
             ORDER BY a.walk_order NULLS LAST, s.bay NULLS LAST, s.shelf NULLS LAST, p.name, g.position
            """, logger: logger)
        return try rows.collect().map { row in
            let r = row.makeRandomAccess()
            let product = try ProductQueries.record(row)
            let ingredient = Recipe.Ingredient(
                index: Int(try r["g_position"].decode(Int32.self)), text: try r["g_text"].decode(String.self), product: product.id,
                productName: product.name, quantity: try r["g_quantity"].decode(Int32?.self).map(Int.init), carried: true)
            return (product, ingredient)
        }
    }

    private static func recipe(_ r: PostgresRandomAccessRow) throws -> Recipe {
        Recipe(
            id: RecipeID(try r["id"].decode(UUID.self)), store: try r["store_id"].decode(UUID?.self).map(StoreID.init),
            author: Author(id: try r["author_id"].decode(UUID?.self).map(UserID.init), name: try r["author_name"].decode(String.self)),
            title: try r["title"].decode(String.self), bodyMarkdown: try r["body_markdown"].decode(String.self),
            servings: Int(try r["servings"].decode(Int32.self)), ingredients: [], carried: nil,
            commentCount: Int(try r["comment_count"].decode(Int32.self)), hidden: try r["hidden"].decode(Bool.self),
            createdAt: try r["created_at"].decode(Date.self), updatedAt: try r["updated_at"].decode(Date.self),
            hasImage: try r["has_image"].decode(Bool.self))
    }
}

extension Recipe.Draft {
    /// The ingredients' text as a recipe's search document has it (`recipes.search`, what `q`
    /// matches): its title weighs most (A), then these (B), then its body (C), English stemming.
    fileprivate var searchIngredients: String { ingredients.map(\.text).joined(separator: " ") }
}
