import Foundation
import FulfilmentDomain
import OpenAPIRuntime

/// Recipes, their comments and putting one in the cart (issue 31).
extension API {

    func listRecipes(_ input: Operations.ListRecipes.Input) async throws -> Operations.ListRecipes.Output {
        var product: ProductID?
        if let text = input.query.productId { product = try ProductID.parse(text, notFound: .productNotFound) }
        let text = input.query.q?.trimmingCharacters(in: .whitespacesAndNewlines)
        if let text, text.unicodeScalars.count > 100 { throw ContentError.invalidField("q", "At most 100 characters.") }
        let search = Recipes.Search(
            text: text?.isEmpty == false ? text : nil, product: product, store: try await optionalStore(input.query.storeId),
            limit: try pageSize(input.query.limit), cursor: input.query.cursor)
        let page = try await services.recipes.search(search, viewer: .current, logger: logger)
        return .ok(.init(body: .json(.init(items: page.items.map(Components.Schemas.Recipe.init), nextCursor: page.nextCursor))))
    }

    func getRecipe(_ input: Operations.GetRecipe.Input) async throws -> Operations.GetRecipe.Output {
        let id = try RecipeID.parse(input.path.recipeId)
        let store = try await optionalStore(input.query.storeId)
        return .ok(.init(body: .json(.init(try await services.recipes.recipe(id, at: store, viewer: .current, logger: logger)))))
    }

    func createRecipe(_ input: Operations.CreateRecipe.Input) async throws -> Operations.CreateRecipe.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        let recipe = try await services.recipes.create(try Recipe.Draft(body), at: try Self.sharedAt(body), by: try Identity.required, logger: logger)
        return .created(.init(body: .json(.init(recipe))))
    }

    func updateRecipe(_ input: Operations.UpdateRecipe.Input) async throws -> Operations.UpdateRecipe.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        let id = try RecipeID.parse(input.path.recipeId)
        _ = try Self.sharedAt(body)  // read only when sharing, but held to its format on every request
        let recipe = try await services.recipes.update(id, try Recipe.Draft(body), by: try Identity.required, logger: logger)
        return .ok(.init(body: .json(.init(recipe))))
    }

    func deleteRecipe(_ input: Operations.DeleteRecipe.Input) async throws -> Operations.DeleteRecipe.Output {
        try await services.recipes.delete(try RecipeID.parse(input.path.recipeId), by: try Identity.required.userID, logger: logger)
        return .noContent(.init())
    }

    func getRecipeImage(_ input: Operations.GetRecipeImage.Input) async throws -> Operations.GetRecipeImage.Output {
        let image = try await services.recipes.image(of: try RecipeID.parse(input.path.recipeId), viewer: .current, logger: logger)
        switch image.kind {
        case .png: return .ok(.init(headers: .init(eTag: image.etag), body: .png(HTTPBody(image.bytes))))
        case .jpeg: return .ok(.init(headers: .init(eTag: image.etag), body: .jpeg(HTTPBody(image.bytes))))
        }
    }

    func uploadRecipeImage(_ input: Operations.UploadRecipeImage.Input) async throws -> Operations.UploadRecipeImage.Output {
        let id = try RecipeID.parse(input.path.recipeId)
        let image: ProductImage =
            switch input.body {
            case .png(let body): try await uploadedImage(body, declared: .png)
            case .jpeg(let body): try await uploadedImage(body, declared: .jpeg)
            case .binary(let body): try await uploadedImage(body, declared: nil)
            }
        return .ok(.init(body: .json(.init(try await services.recipes.setImage(image, of: id, by: try Identity.required, logger: logger)))))
    }

    func addRecipeToCart(_ input: Operations.AddRecipeToCart.Input) async throws -> Operations.AddRecipeToCart.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        let result = try await services.recipes.addToCart(
            try RecipeID.parse(input.path.recipeId), servings: body.servings, skip: body.skip ?? [], customer: try Identity.required.userID,
            logger: logger)
        return .ok(.init(body: .json(.init(result))))
    }

    func listRecipeComments(_ input: Operations.ListRecipeComments.Input) async throws -> Operations.ListRecipeComments.Output {
        let id = try RecipeID.parse(input.path.recipeId)
        let page = try await services.comments.list(
            on: .recipe(id), viewer: .current, limit: try pageSize(input.query.limit), cursor: input.query.cursor, logger: logger)
        return .ok(.init(body: .json(.init(items: page.items.map(Components.Schemas.Comment.init), nextCursor: page.nextCursor))))
    }

    func createRecipeComment(_ input: Operations.CreateRecipeComment.Input) async throws -> Operations.CreateRecipeComment.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        let id = try RecipeID.parse(input.path.recipeId)
        let comment = try await services.comments.create(on: .recipe(id), body: body.bodyMarkdown, by: try Identity.required, logger: logger)
        return .created(.init(body: .json(.init(comment))))
    }

    func deleteComment(_ input: Operations.DeleteComment.Input) async throws -> Operations.DeleteComment.Output {
        guard let id = CommentID(input.path.commentId) else { throw ContentError.commentNotFound }
        try await services.comments.delete(id, by: try Identity.required.userID, logger: logger)
        return .noContent(.init())
    }
}

extension API {
    /// The store a recipe is shared at, as the request names it (nil: not named).
    static func sharedAt(_ body: Components.Schemas.RecipeRequest) throws(ContentError) -> StoreID? {
        guard let text = body.storeId else { return nil }
        guard let id = StoreID(text) else { throw .invalidField("storeId", "There is no such store.") }
        return id
    }
}

extension RecipeID {
    static func parse(_ text: String) throws(ContentError) -> RecipeID {
        guard let id = RecipeID(text) else { throw .recipeNotFound }
        return id
    }
}

extension Recipe.Draft {
    init(_ body: Components.Schemas.RecipeRequest) throws(ContentError) {
        try self.init(
            title: body.title, bodyMarkdown: body.bodyMarkdown, servings: body.servings,
            ingredients: body.ingredients.map { ($0.text, $0.productId, $0.quantity) })
    }
}

extension Components.Schemas.Recipe {
    init(_ recipe: Recipe) {
        self.init(
            id: recipe.id.description, storeId: recipe.store?.description, author: .init(recipe.author), title: recipe.title,
            bodyMarkdown: recipe.bodyMarkdown, bodyHtml: Markdown.html(recipe.bodyMarkdown), servings: recipe.servings,
            imageUrl: recipe.hasImage ? "/v1/recipes/\(recipe.id.description)/image" : nil,
            ingredients: recipe.ingredients.map {
                .init(
                    index: $0.index, text: $0.text, productId: $0.product?.description, productName: $0.productName, quantity: $0.quantity,
                    carried: $0.carried)
            },
            carried: recipe.carried.map { .init(storeId: $0.store.description, carried: $0.carried, of: $0.of) },
            commentCount: recipe.commentCount, hidden: recipe.hidden, createdAt: recipe.createdAt, updatedAt: recipe.updatedAt)
    }
}

extension Components.Schemas.Comment {
    init(_ comment: UserComment) {
        let on: Components.Schemas.Comment.OnPayload =
            switch comment.target {
            case .recipe(let id): .init(kind: .recipe, id: id.description)
            case .news(let id, _): .init(kind: .news, id: id.description)
            }
        self.init(
            id: comment.id.description, on: on, author: .init(comment.author), bodyMarkdown: comment.bodyMarkdown,
            bodyHtml: Markdown.html(comment.bodyMarkdown), hidden: comment.hidden, createdAt: comment.createdAt)
    }
}

extension Components.Schemas.RecipeToCartResult {
    init(_ result: RecipeToCart) {
        func line(_ line: RecipeToCart.Line) -> Components.Schemas.RecipeCartLine {
            .init(
                index: line.index, text: line.text, productId: line.productId?.uuidString.lowercased(), name: line.name,
                quantity: line.quantity, cartQuantity: line.cartQuantity,
                reason: line.reason.flatMap(Components.Schemas.RecipeCartLine.ReasonPayload.init(rawValue:)), available: line.available)
        }
        self.init(
            storeId: result.storeId.uuidString.lowercased(), servings: result.servings, added: result.added.map(line),
            notAdded: result.notAdded.map(line))
    }
}
