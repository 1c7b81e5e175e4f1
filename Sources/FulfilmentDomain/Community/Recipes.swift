import Logging

/// Recipes: anyone reads and searches them (hidden ones only their author and moderators), anyone
/// signed in shares one (through `PostingQueries`' gate), its author edits or deletes it, and a
/// customer puts it in their cart in one statement (`add_recipe_to_cart`).
package struct Recipes: Sendable {
    package let database: Database

    package struct Search: Sendable {
        package var text: String?
        package var product: ProductID?
        package var store: StoreID?
        package var limit: Int
        package var cursor: String?

        package init(text: String? = nil, product: ProductID? = nil, store: StoreID? = nil, limit: Int, cursor: String? = nil) {
            self.text = text
            self.product = product
            self.store = store
            self.limit = limit
            self.cursor = cursor
        }
    }

    package func search(_ search: Search, viewer: Viewer, logger: Logger) async throws -> Page<Recipe> {
        try await RecipeQueries.search(search, viewer: viewer, on: database.client, logger: logger)
    }

    package func recipe(_ id: RecipeID, at store: StoreID?, viewer: Viewer, logger: Logger) async throws -> Recipe {
        guard let recipe = try await RecipeQueries.recipe(id, at: store, viewer: viewer, on: database.client, logger: logger) else {
            throw ContentError.recipeNotFound
        }
        return recipe
    }

    /// Shares a recipe at `store`: a staff member's own store; a customer's choice, or else the
    /// store they chose for browsing; the chain's admin's choice, or none.
    package func create(_ draft: Recipe.Draft, at store: StoreID?, by author: Identity, logger: Logger) async throws -> Recipe {
        if author.role.worksInStore, let store, store != author.storeID {
            throw ContentError.invalidField("storeId", "Staff share recipes at their own store.")
        }
        let store = author.role.worksInStore ? author.storeID : store
        let viewer = Viewer(user: author.userID, role: author.role, store: author.storeID)
        let id = try await database.transaction(logger: logger) { connection in
            try await PostingQueries.admit(author.userID, on: connection, logger: logger)
            return try await RecipeQueries.create(draft, at: store, by: author.userID, on: connection, logger: logger)
        }
        return try await recipe(id, at: nil, viewer: viewer, logger: logger)
    }

    package func update(_ id: RecipeID, _ draft: Recipe.Draft, by author: Identity, logger: Logger) async throws -> Recipe {
        let viewer = Viewer(user: author.userID, role: author.role, store: author.storeID)
        try await database.transaction(logger: logger) { connection in
            try await PostingQueries.admit(author.userID, on: connection, logger: logger)
            switch try await RecipeQueries.update(id, draft, by: author.userID, on: connection, logger: logger) {
            case .deleted: return
            case .notAuthor: throw ContentError.notAuthor
            case .notFound: throw ContentError.recipeNotFound
            }
        }
        return try await recipe(id, at: nil, viewer: viewer, logger: logger)
    }

    /// Sets or replaces the recipe's image; its author's alone.
    package func setImage(_ image: ProductImage, of id: RecipeID, by author: Identity, logger: Logger) async throws -> Recipe {
        let viewer = Viewer(user: author.userID, role: author.role, store: author.storeID)
        let found = try await recipe(id, at: nil, viewer: viewer, logger: logger)
        guard found.author.id == author.userID else { throw ContentError.notAuthor }
        try await ContentImageQueries.store(image, of: .recipe(id), on: database.client, logger: logger)
        return try await recipe(id, at: nil, viewer: viewer, logger: logger)
    }

    /// The recipe's image, to whoever may read the recipe.
    package func image(of id: RecipeID, viewer: Viewer, logger: Logger) async throws -> ProductImage {
        _ = try await recipe(id, at: nil, viewer: viewer, logger: logger)
        guard let image = try await ContentImageQueries.image(of: .recipe(id), on: database.client, logger: logger) else {
            throw ContentError.imageNotFound
        }
        return image
    }

    package func delete(_ id: RecipeID, by user: UserID, logger: Logger) async throws {
        switch try await RecipeQueries.delete(id, by: user, on: database.client, logger: logger) {
        case .deleted: return
        case .notAuthor: throw ContentError.notAuthor
        case .notFound: throw ContentError.recipeNotFound
        }
    }

    /// Every linked ingredient into the customer's cart, scaled to `servings` (the recipe's when
    /// nil) and rounded up, skipping the ingredients `skip` names; one statement, one transaction.
    package func addToCart(_ id: RecipeID, servings: Int?, skip: [Int], customer: UserID, logger: Logger) async throws -> RecipeToCart {
        if let servings, !Recipe.servingsRange.contains(servings) { throw ContentError.invalidField("servings", "Servings are 1 to 100.") }
        guard skip.count <= Recipe.maximumIngredients, skip.allSatisfy({ (0..<Recipe.maximumIngredients).contains($0) }) else {
            throw ContentError.invalidField("skip", "Skip names ingredients by their index, 0 to 99.")
        }
        switch try await RecipeQueries.addToCart(id, servings: servings, skip: skip, customer: customer, on: database.client, logger: logger) {
        case .done(let result): return result
        case .refused("no_store_chosen", _): throw ContentError.noStoreChosen
        case .refused("unknown_ingredient", let index):
            throw ContentError.invalidField("skip", "The recipe has no ingredient \(index ?? 0).")
        case .refused: throw ContentError.recipeNotFound
        }
    }

    /// Where everything for the recipe is at `store`, in aisle walk order.
    package func locate(_ id: RecipeID, at store: StoreID, viewer: Viewer, logger: Logger) async throws -> [(ProductRecord, Recipe.Ingredient)] {
        guard let found = try await RecipeQueries.locate(id, at: store, viewer: viewer, on: database.client, logger: logger) else {
            throw ContentError.recipeNotFound
        }
        return found
    }
}
