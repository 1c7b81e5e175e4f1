import Foundation

/// A recipe shared by a customer or by staff: Markdown, servings, and ingredients that may name
/// the products they are, which is what lets one tap put the recipe in the cart.
struct Recipe: Sendable {
    struct Ingredient: Sendable, Equatable {
        /// Its place in the recipe, from 0 (what add-to-cart's `skip` names).
        var index: Int
        var text: String
        var product: ProductID?
        var productName: String?
        /// Units of the product for the recipe's servings (nil: 1).
        var quantity: Int?
        /// With a store asked about: whether it carries the product.
        var carried: Bool?
    }

    var id: RecipeID
    var store: StoreID?
    var author: Author
    var title: String
    var bodyMarkdown: String
    var servings: Int
    var ingredients: [Ingredient]
    /// With a store asked about: how many ingredients it carries, of all of them.
    var carried: (store: StoreID, carried: Int, of: Int)?
    var commentCount: Int
    var hidden: Bool
    var createdAt: Date
    var updatedAt: Date
    var hasImage = false

    static let maximumIngredients = 100
    static let servingsRange = 1...100
    static let quantityRange = 1...999

    /// What an author writes, checked.
    struct Draft: Sendable, Equatable {
        struct Ingredient: Sendable, Equatable {
            var text: String
            var product: ProductID?
            var quantity: Int?
        }
        var title: String
        var bodyMarkdown: String
        var servings: Int
        var ingredients: [Ingredient]

        init(title: String, bodyMarkdown: String, servings: Int, ingredients: [(text: String, product: String?, quantity: Int?)])
            throws(ContentError)
        {
            self.title = try ContentText.title(title)
            self.bodyMarkdown = try ContentText.body(bodyMarkdown)
            guard Recipe.servingsRange.contains(servings) else { throw .invalidField("servings", "Servings are 1 to 100.") }
            self.servings = servings
            guard ingredients.count <= Recipe.maximumIngredients else { throw .invalidField("ingredients", "At most 100 ingredients.") }
            var checked: [Ingredient] = []
            for ingredient in ingredients {
                let text = try ContentText.title(ingredient.text, field: "ingredients")
                var product: ProductID?
                if let id = ingredient.product {
                    guard let parsed = ProductID(id) else { throw .invalidField("ingredients", "An ingredient names no such product.") }
                    product = parsed
                }
                if let quantity = ingredient.quantity, !Recipe.quantityRange.contains(quantity) {
                    throw .invalidField("ingredients", "An ingredient's quantity is 1 to 999 units.")
                }
                checked.append(Ingredient(text: text, product: product, quantity: ingredient.quantity))
            }
            self.ingredients = checked
        }
    }
}

/// What putting a recipe in the cart did, line by line (`add_recipe_to_cart`).
struct RecipeToCart: Sendable, Decodable, Equatable {
    struct Line: Sendable, Decodable, Equatable {
        var index: Int
        var text: String
        var productId: UUID?
        var name: String?
        var quantity: Int?
        var cartQuantity: Int?
        var reason: String?
        var available: Int?
    }
    var storeId: UUID
    var servings: Int
    var added: [Line]
    var notAdded: [Line]
}
