import Foundation
import FulfilmentDomain

/// The categories page (issue 46): every category of the catalogue with what the shop says
/// about it and its picture, and one category's form (`putCategoryDetails`).
enum CategoriesView {
    static func list(session: ConsoleSession, categories: [CategoryCount]) -> ConsolePage {
        let rows = categories.map { category -> HTML in
            let picture: HTML =
                category.imageProductID.map {
                    "<img src=\"/v1/products/\($0)/images/0\" alt=\"\" width=\"48\" height=\"48\" loading=\"lazy\">"
                } ?? "<span class=\"hint\">None</span>"
            let description: HTML =
                category.description.isEmpty ? "<span class=\"hint\">None yet</span>" : "\(String(category.description.prefix(120)))"
            return """
                <tr>
                <td data-label="Category"><a href="\(editPath(category.name))">\(category.name)</a></td>
                <td data-label="Products">\(category.productCount)</td>
                <td data-label="Description">\(description)</td>
                <td data-label="Picture">\(picture)</td>
                </tr>
                """
        }
        return ConsolePage(
            title: "Categories", session: session,
            body: """
                <p><a href="/console/products">All products</a></p>
                <h1>Categories</h1>
                <p class="hint">A category is what products carry in their Category field; here it gets the words and the picture the shop shows.</p>
                <table class="cards" id="categories">
                <thead><tr><th scope="col">Category</th><th scope="col">Products</th><th scope="col">Description</th><th scope="col">Picture</th></tr></thead>
                <tbody>\(HTML.join(rows))</tbody></table>
                <form method="get" action="/console/categories/edit" class="fields" id="new-category">
                <p class="field"><label for="category-name">Describe a category by name</label><input id="category-name" name="name" required maxlength="100"></p>
                <p><button type="submit" class="secondary" id="open-category">Open</button></p>
                </form>
                """)
    }

    static func editPath(_ name: String) -> String {
        var components = URLComponents()
        components.queryItems = [URLQueryItem(name: "name", value: name)]
        return "/console/categories/edit?" + (components.percentEncodedQuery ?? "")
    }

    /// One category's form; `pictures` are its products that have an image.
    static func edit(
        session: ConsoleSession, csrf: HTML, notice: Notice?, name: String, description: String, picture: ProductID?,
        pictures: [ProductRecord]
    ) -> ConsolePage {
        let options = pictures.map { product -> HTML in
            "<option value=\"\(product.id)\"\(product.id == picture ? " selected" : "")>\(product.name)</option>"
        }
        let preview: HTML =
            picture.map {
                "<p><img src=\"/v1/products/\($0)/images/0\" alt=\"The category's picture now\" width=\"160\" height=\"160\" id=\"category-picture\"></p>"
            }
            ?? .empty
        return ConsolePage(
            title: name, session: session,
            body: """
                <p><a href="/console/categories">All categories</a></p>
                <h1>\(name)</h1>
                \(notice.map { $0.render(id: "category-note") } ?? .empty)
                \(preview)
                <form method="post" action="/console/categories" class="fields roomy" id="category-form">\(csrf)
                <input type="hidden" name="name" value="\(name)">
                <p class="field wide"><label for="category-description">What the shop says about it</label><textarea id="category-description" name="description" maxlength="1000" rows="4">\(description)</textarea></p>
                <p class="field wide"><label for="category-image">Picture: the first image of</label><select id="category-image" name="imageProductId"><option value="">No picture</option>\(HTML.join(options))</select></p>
                \(pictures.isEmpty ? "<p class=\"hint\">None of its products has an image yet.</p>" as HTML : .empty)
                <p><button type="submit" id="save-category">Save</button></p>
                </form>
                """)
    }
}
