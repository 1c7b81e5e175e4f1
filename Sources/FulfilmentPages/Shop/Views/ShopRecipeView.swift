import Foundation
import FulfilmentDomain

/// The community's recipes in the shop: the search and list, shown by `GET /shop/recipes`
/// (`listRecipes`, `?q=`, `?cursor=`), and one recipe, shown by `GET /shop/recipes/{recipeId}`
/// (`getRecipe`, `locateProducts?recipeId=`, `listRecipeComments`) and after its forms: into the
/// cart scaled to servings (`POST /shop/recipes/{recipeId}/cart`, `addRecipeToCart`), a comment
/// (`createRecipeComment`) and reports (`reportContent`).
enum ShopRecipeView {
    /// The recipe's image as the API serves it (`getRecipeImage`); nil when it has none.
    static func imageURL(_ recipe: Recipe) -> String? {
        recipe.hasImage ? "/v1/recipes/\(recipe.id)/image" : nil
    }

    /// "6 of 7 ingredients at Kingston": how much of it the shop's store sells, when there is one.
    static func carriedText(_ recipe: Recipe, store: StoreRecord?) -> String? {
        guard let store, let carried = recipe.carried, carried.of > 0 else { return nil }
        return "\(carried.carried) of \(carried.of) ingredients at \(store.name)"
    }

    /// The search form and the recipes found (newest first without words, best match first with
    /// them), each linking to its page; `next` is the cursor of the next page. `store` (nil: none
    /// chosen yet) says how much of each recipe it sells.
    static func list(frame: ShopPageView.Frame, store: StoreRecord?, text: String, recipes: [Recipe], next: String?) -> ConsolePage {
        let cards = HTML.join(
            recipes.map { recipe -> HTML in
                let image: HTML = imageURL(recipe).map { "<img class=\"story-image\" src=\"\($0)\" alt=\"\" loading=\"lazy\">" } ?? .empty
                var facts = ["by \(ShopNewsAndRecipesView.authorName(recipe.author))", "serves \(recipe.servings)"]
                if let carried = carriedText(recipe, store: store) { facts.append(carried) }
                facts.append(recipe.commentCount == 1 ? "1 comment" : "\(recipe.commentCount) comments")
                return """
                    <li class="story" id="recipe-\(recipe.id)">
                    \(image)
                    <h3 class="story-title"><a href="/shop/recipes/\(recipe.id)">\(recipe.title)</a></h3>
                    <p class="hint">\(facts.joined(separator: " · "))</p>
                    <p class="story-summary">\(ShopNewsAndRecipesView.summary(recipe.bodyMarkdown))</p>
                    </li>
                    """
            })
        let empty = text.isEmpty ? "No recipes yet." : "No recipe matches “\(text)”. Try another word, or fewer words."
        let list: HTML =
            recipes.isEmpty ? "<p class=\"hint\" id=\"no-recipes\">\(empty)</p>" : "<ul class=\"stories\" id=\"recipe-list\">\(cards)</ul>"
        var more: HTML = .empty
        if let next {
            var components = URLComponents()
            components.path = "/shop/recipes"
            components.queryItems = (text.isEmpty ? [] : [URLQueryItem(name: "q", value: text)]) + [URLQueryItem(name: "cursor", value: next)]
            more = "<p><a class=\"button secondary\" id=\"more-recipes\" href=\"\(components.string ?? "/shop/recipes")\">More recipes</a></p>"
        }
        return ShopPageView.page(
            "Recipes", frame: frame,
            body: """
                \(ShopNewsAndRecipesView.links(current: "/shop/recipes"))
                <h1>Recipes</h1>
                <form method="get" action="/shop/recipes" class="search" role="search" id="recipe-search">
                <label for="recipe-q">Search recipes</label>
                <input id="recipe-q" name="q" type="search" value="\(text)" maxlength="100" autocomplete="off">
                <button type="submit" id="recipe-search-button">Search</button>
                </form>
                <h2 id="recipes-heading">\(text.isEmpty ? "Newest recipes" : "Recipes for “\(text)”")</h2>
                \(list)
                \(more)
                """)
    }

    /// What the recipe page shows besides the recipe: the store's places for it, the form's
    /// state, the comments and where the forms go.
    struct RecipePage: Sendable {
        var recipe: Recipe
        /// The shop's store; nil: none chosen yet (no aisles, no "what it sells").
        var store: StoreRecord?
        /// The recipe's products at the store, in aisle walk order (`locate`).
        var located: [(ProductRecord, Recipe.Ingredient)]
        /// The servings as the customer typed them, kept when refused; nil: the recipe's own.
        var servings: String?
        /// The ingredients they asked to leave out, kept when refused.
        var skipped: Set<Int> = []
        var comments: [UserComment]
        var nextComments: String?
        var zone: TimeZone?
        var forms: ShopNewsAndRecipesView.CommentForms
        /// A visitor's way to fill the cart: the sign-in that comes back to the recipe.
        var signIn: String
    }

    /// The recipe: title, author, servings, image; its ingredients (with what the store does not
    /// sell said); the form that puts it in the cart scaled to servings, leaving out what the
    /// customer has; the method (sanitised Markdown only); "find these in store" in aisle walk
    /// order; the comments, and a way to report the recipe.
    static func page(frame: ShopPageView.Frame, _ page: RecipePage) -> ConsolePage {
        let recipe = page.recipe
        let fields = ShopPageView.formFields(session: frame.session, back: page.forms.page)
        let image: HTML = imageURL(recipe).map { "<img class=\"article-image\" src=\"\($0)\" alt=\"\">" } ?? .empty
        var facts = ["Shared by \(ShopNewsAndRecipesView.authorName(recipe.author))", "serves \(recipe.servings)"]
        if let carried = carriedText(recipe, store: page.store) { facts.append(carried) }
        let hidden: HTML =
            recipe.hidden
            ? "<p class=\"notice notice-refused\" id=\"recipe-hidden\">A moderator has hidden this recipe: only you can see it.</p>" : .empty
        return ShopPageView.page(
            recipe.title, frame: frame,
            body: """
                \(ShopNewsAndRecipesView.links(current: ""))
                <article class="article recipe" id="recipe">
                <h1>\(recipe.title)</h1>
                <p class="hint">\(facts.joined(separator: " · "))</p>
                \(hidden)
                \(image)
                <section aria-labelledby="ingredients-heading">
                <h2 id="ingredients-heading">Ingredients</h2>
                \(ingredients(recipe, store: page.store))
                </section>
                \(cartForm(page, fields: fields, signedIn: frame.session != nil))
                <section aria-labelledby="method-heading">
                <h2 id="method-heading">Method</h2>
                <div class="article-body" id="recipe-body">\(ShopNewsAndRecipesView.body(recipe.bodyMarkdown))</div>
                </section>
                </article>
                \(locate(page))
                \(ShopNewsAndRecipesView.comments(page.comments, count: recipe.commentCount, next: page.nextComments, zone: page.zone, session: frame.session, forms: page.forms))
                \(report(recipe, fields: fields, signedIn: frame.session != nil))
                <p><a href="/shop/recipes">All recipes</a></p>
                """)
    }

    /// Each ingredient as written, with the product it names and how many for the recipe's
    /// servings; one the store does not sell says so.
    static func ingredients(_ recipe: Recipe, store: StoreRecord?) -> HTML {
        guard !recipe.ingredients.isEmpty else { return "<p class=\"hint\">No ingredients listed.</p>" }
        let items = HTML.join(
            recipe.ingredients.map { ingredient -> HTML in
                var product: HTML = .empty
                if let name = ingredient.productName {
                    product = " <span class=\"hint\">(\(name) × \(ingredient.quantity ?? 1))</span>"
                }
                let missing: HTML =
                    ingredient.carried == false ? " <span class=\"stock out\">not sold at \(store?.name ?? "this store")</span>" : .empty
                return "<li id=\"ingredient-\(ingredient.index)\">\(ingredient.text)\(product)\(missing)</li>"
            })
        return "<ul class=\"ingredients\" id=\"ingredients\">\(items)</ul>"
    }

    /// "Add to cart" for a number of servings: each linked ingredient scaled and rounded up, a
    /// box to leave out what the customer has at home. A visitor sees it too, and is asked to
    /// sign in when they send it (the cart it fills is their account's).
    static func cartForm(_ page: RecipePage, fields: HTML, signedIn: Bool) -> HTML {
        let linked = page.recipe.ingredients.filter { $0.product != nil }
        guard !linked.isEmpty else { return .empty }
        let boxes = HTML.join(
            linked.map { ingredient -> HTML in
                let checked: HTML = page.skipped.contains(ingredient.index) ? " checked" : .empty
                return """
                    <li><input type="checkbox" id="skip-\(ingredient.index)" name="skip-\(ingredient.index)" value="on"\(checked)>
                    <label for="skip-\(ingredient.index)">\(ingredient.productName ?? ingredient.text)</label></li>
                    """
            })
        let hint: HTML =
            signedIn
            ? "<p class=\"hint\">Quantities are scaled to the servings and rounded up, at your cart's store.</p>"
            : "<p class=\"hint\">You will be asked to <a href=\"\(page.signIn)\">sign in</a> first: the recipe goes into your account's cart.</p>"
        return """
            <section class="recipe-cart" id="recipe-cart" aria-labelledby="recipe-cart-heading">
            <h2 id="recipe-cart-heading">Add it to your cart</h2>
            \(hint)
            <form method="post" action="/shop/recipes/\(page.recipe.id)/cart" id="recipe-cart-form">\(fields)
            <p><label for="servings">Servings</label>
            <input id="servings" name="servings" type="number" inputmode="numeric" min="\(Recipe.servingsRange.lowerBound)" max="\(Recipe.servingsRange.upperBound)" value="\(page.servings ?? String(page.recipe.servings))" class="qty"></p>
            <fieldset class="leave-out"><legend>Leave out what you have</legend><ul>\(boxes)</ul></fieldset>
            <button type="submit" id="recipe-to-cart">Add to cart</button>
            </form>
            </section>
            """
    }

    /// "Find these in store": the recipe's products the store sells, in the order a walk through
    /// its aisles meets them (not yet placed last), each with where it is and whether it is in.
    static func locate(_ page: RecipePage) -> HTML {
        guard let store = page.store else {
            return """
                <section id="recipe-locate" aria-labelledby="locate-heading"><h2 id="locate-heading">Find these in store</h2>
                <p class="hint"><a href="/shop/stores">Choose a store</a> to see which aisle each is in.</p></section>
                """
        }
        let items = HTML.join(
            page.located.map { product, ingredient -> HTML in
                """
                <li class="located" id="located-\(product.id)"><strong>\(product.name)</strong> <span class="hint">for “\(ingredient.text)”</span>
                <span class="where">\(ProductListView.whereText(product))</span> <span class="hint">\(ProductListView.stockText(product))</span></li>
                """
            })
        let list: HTML =
            page.located.isEmpty
            ? "<p class=\"hint\" id=\"locate-empty\">\(store.name) sells none of this recipe's products.</p>"
            : "<ol class=\"locate\" id=\"recipe-locate-list\">\(items)</ol>"
        return """
            <section id="recipe-locate" aria-labelledby="locate-heading">
            <h2 id="locate-heading">Find these in store</h2>
            <p class="hint">At \(store.name), in the order you walk past them.</p>
            \(list)
            </section>
            """
    }

    /// A signed-in reader's way to report the recipe to its store's moderators (`reportContent`).
    static func report(_ recipe: Recipe, fields: HTML, signedIn: Bool) -> HTML {
        guard signedIn, !recipe.hidden else { return .empty }
        return """
            <details class="report" id="report-recipe"><summary>Report this recipe</summary>
            <form method="post" action="/shop/recipes/\(recipe.id)/report" class="report-form">\(fields)
            <label for="recipe-reason">Why (optional)</label>
            <input id="recipe-reason" name="reason" maxlength="\(ContentReport.reasonLength)">
            <button type="submit" class="secondary">Send report</button>
            </form></details>
            """
    }

    /// What putting the recipe in the cart did, as one sentence: what went in (with the cart's
    /// quantity now), and every line that did not with why, in `CartAddition.notAddedText`'s
    /// words. Done (green) when anything went in.
    static func cartOutcome(_ result: RecipeToCart) -> Notice {
        let added = result.added.map { "\($0.name ?? $0.text) × \($0.quantity ?? 1)" }.joined(separator: ", ")
        var text =
            result.added.isEmpty
            ? "Nothing could go in your cart."
            : "Added to your cart for \(result.servings) \(result.servings == 1 ? "serving" : "servings"): \(added)."
        if !result.notAdded.isEmpty { text += " Not added: \(CartAddition.notAddedText(result.notAdded))." }
        return Notice(ok: !result.added.isEmpty, text: text)
    }
}
