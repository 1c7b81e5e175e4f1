import Foundation

/// A recipe shared by a customer or by staff: Markdown, servings, and ingredients that may name
/// the products they are, which is what lets one tap put the recipe in the cart.
package struct Recipe: Sendable {
    package struct Ingredient: Sendable, Equatable {
        /// Its place in the recipe, from 0 (what add-to-cart's `skip` names).
        package var index: Int
        package var text: String
        package var product: ProductID?
        package var productName: String?
        /// Units of the product for the recipe's servings (nil: 1).
        package var quantity: Int?
        /// With a store asked about: whether it carries the product.
        package var carried: Bool?
    }

    package var id: RecipeID
    package var store: StoreID?
    package var author: Author
    package var title: String
    package var bodyMarkdown: String
    package var servings: Int
    package var ingredients: [Ingredient]
    /// With a store asked about: how many ingredients it carries, of all of them.
    package var carried: (store: StoreID, carried: Int, of: Int)?
    package var commentCount: Int
    package var hidden: Bool
    package var createdAt: Date
    package var updatedAt: Date
    package var hasImage = false

    package static let maximumIngredients = 100
    package static let servingsRange = 1...100
    package static let quantityRange = 1...999

    /// What an author writes, checked.
    package struct Draft: Sendable, Equatable {
        package struct Ingredient: Sendable, Equatable {
            package var text: String
            package var product: ProductID?
            package var quantity: Int?
        }
        package var title: String
        package var bodyMarkdown: String
        package var servings: Int
        package var ingredients: [Ingredient]

        package init(title: String, bodyMarkdown: String, servings: Int, ingredients: [(text: String, product: String?, quantity: Int?)])
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
package struct RecipeToCart: Sendable, Decodable, Equatable {
    package typealias Line = CartAddition.Line
    package var storeId: UUID
    package var servings: Int
    package var added: [Line]
    package var notAdded: [Line]
}
