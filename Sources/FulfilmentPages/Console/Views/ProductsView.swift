import Foundation
import FulfilmentDomain

/// The catalogue pages (issue 46): the list with search, a product's page and the new-product
/// form. The chain's admin edits what every store shares (names, barcodes, the chain's price,
/// images, discontinuing); a store's manager reads that and keeps their store's own price and
/// the product's place in their store.
enum ProductsView {
    /// What the list shows: the search, the category, and on sale or discontinued.
    struct Listing: Sendable {
        var text: String
        var category: String?
        var discontinued: Bool
        var products: [ProductRecord]
        var nextCursor: String?
        var categories: [CategoryCount]
    }

    static func list(session: ConsoleSession, notice: Notice?, listing: Listing, isAdmin: Bool) -> ConsolePage {
        let rows = listing.products.map { product -> HTML in
            let place: HTML =
                product.stock?.location.map { "Aisle \($0.aisleCode)\($0.bay.map { " bay \($0)" } ?? "")" } ?? "<span class=\"hint\">No place</span>"
            return """
                <tr id="product-\(product.id)">
                <td data-label="Product"><a href="/console/products/\(product.id)">\(product.name)</a>\(Self.hint([product.brand, product.size]))</td>
                <td data-label="SKU">\(product.sku)</td>
                <td data-label="Category">\(product.category.isEmpty ? "–" : product.category)</td>
                <td data-label="\(isAdmin ? "Price" : "Price here")">\(MoneyText.format(product.priceAmount, product.currency))</td>
                \(isAdmin ? HTML.empty : "<td data-label=\"Place\">\(place)</td>")
                </tr>
                """
        }
        let options = listing.categories.map { category -> HTML in
            "<option value=\"\(category.name)\"\(category.name == listing.category ? " selected" : "")>\(category.name) (\(category.productCount))</option>"
        }
        var more = URLComponents()
        more.queryItems = [
            URLQueryItem(name: "q", value: listing.text), URLQueryItem(name: "category", value: listing.category ?? ""),
            URLQueryItem(name: "show", value: listing.discontinued ? "discontinued" : "selling"),
            URLQueryItem(name: "cursor", value: listing.nextCursor ?? ""),
        ]
        let next: HTML =
            listing.nextCursor == nil
            ? .empty : "<p><a href=\"/console/products?\(more.percentEncodedQuery ?? "")\" id=\"next-page\">Next page</a></p>"
        let adminLinks: HTML =
            isAdmin
            ? """
            <p class="actions"><a href="/console/products/new" class="button" id="new-product">New product</a> \
            <a href="/console/categories" id="categories-link">Categories</a> \
            <a href="/console/catalogue/import" id="import-link">Import a CSV</a></p>
            """
            : """
            <p class="actions"><a href="/console/catalogue/import" id="import-link">Import prices and places (CSV)</a></p>
            """
        let empty: HTML =
            listing.products.isEmpty
            ? "<p id=\"no-products\">\(listing.discontinued ? "No discontinued product matches." : "No product matches.")</p>" : .empty
        return ConsolePage(
            title: "Products", session: session,
            body: """
                <h1>Products</h1>
                \(notice.map { $0.render(id: "products-note") } ?? .empty)
                \(adminLinks)
                <form method="get" action="/console/products" class="fields" id="product-search" role="search">
                <p class="field wide"><label for="product-q">Name, brand or barcode</label><input id="product-q" name="q" type="search" maxlength="100" value="\(listing.text)"></p>
                <p class="field"><label for="product-category">Category</label><select id="product-category" name="category"><option value="">Every category</option>\(HTML.join(options))</select></p>
                <p class="field"><label for="product-show">Show</label><select id="product-show" name="show">\
                <option value="selling"\(listing.discontinued ? "" : " selected")>On sale</option>\
                <option value="discontinued"\(listing.discontinued ? " selected" : "")>Discontinued</option></select></p>
                <p><button type="submit" id="product-search-button">Search</button></p>
                </form>
                \(empty)
                <table class="cards" id="products">
                <thead><tr><th scope="col">Product</th><th scope="col">SKU</th><th scope="col">Category</th><th scope="col">\(isAdmin ? "Price" : "Price here")</th>\(isAdmin ? HTML.empty : "<th scope=\"col\">Place</th>")</tr></thead>
                <tbody>\(HTML.join(rows))</tbody></table>
                \(next)
                """)
    }

    /// The product's fields as a form shows them: stored, or as a refused form sent them.
    /// A product's brand and pack size beside its name, when it has them.
    static func hint(_ words: [String]) -> HTML {
        let words = words.filter { !$0.isEmpty }
        return words.isEmpty ? "" : " <span class=\"hint\">\(words.joined(separator: " · "))</span>"
    }

    static func fields(_ product: ProductRecord?, minimumAge: Int?, currency: String) -> ConsoleForm {
        guard let product else { return ConsoleForm(fields: ["currency": currency]) }
        return ConsoleForm(fields: [
            "sku": product.sku, "barcode": product.barcode ?? "", "name": product.name, "brand": product.brand, "size": product.size,
            "taxClass": product.taxClass.rawValue,
            "description": product.description, "category": product.category,
            "price": MoneyText.plain(product.priceAmount, product.currency), "currency": product.currency,
            "minimumAge": minimumAge.map(String.init) ?? "",
        ])
    }

    /// The chain's fields of a product, for a new one or to change one.
    static func editor(action: String, csrf: HTML, fields: ConsoleForm, categories: [CategoryCount], button: String) -> HTML {
        let value = { (name: String) in fields[name] ?? "" }
        let known = categories.map { "<option value=\"\($0.name)\"></option>" as HTML }
        return """
            <form method="post" action="\(action)" class="fields roomy" id="product-form">\(csrf)
            <p class="field wide"><label for="product-name">Name</label><input id="product-name" name="name" required maxlength="200" value="\(value("name"))"></p>
            <p class="field"><label for="product-brand">Brand</label><input id="product-brand" name="brand" maxlength="100" value="\(value("brand"))"></p>
            <p class="field"><label for="product-size">Pack size</label><input id="product-size" name="size" maxlength="40" placeholder="500 g" value="\(value("size"))"></p>
            <p class="field"><label for="product-tax-class">Tax</label><select id="product-tax-class" name="taxClass">\(HTML.join(TaxClass.allCases.map { taxClass -> HTML in
                "<option value=\"\(taxClass.rawValue)\"\(HTML(trusted: (fields["taxClass"] ?? "standard") == taxClass.rawValue ? " selected" : ""))>\(taxClass.words.prefix(1).uppercased() + taxClass.words.dropFirst())</option>"
            }))</select></p>
            <p class="field"><label for="product-sku">SKU</label><input id="product-sku" name="sku" required maxlength="64" value="\(value("sku"))" autocomplete="off"></p>
            <p class="field"><label for="product-barcode">Barcode (EAN-13, EAN-8, UPC-A; checked)</label><input id="product-barcode" name="barcode" inputmode="numeric" maxlength="14" value="\(value("barcode"))" autocomplete="off"></p>
            <p class="field"><label for="product-category-field">Category</label><input id="product-category-field" name="category" maxlength="100" list="known-categories" value="\(value("category"))"></p>
            <datalist id="known-categories">\(HTML.join(known))</datalist>
            <p class="field"><label for="product-price">The chain's price (\(value("currency")))</label><input id="product-price" name="price" required inputmode="decimal" maxlength="15" placeholder="12.50" value="\(value("price"))"></p>
            <input type="hidden" name="currency" value="\(value("currency"))">
            <p class="field wide"><label for="product-description">Description</label><textarea id="product-description" name="description" maxlength="2000" rows="4">\(value("description"))</textarea></p>
            <p><button type="submit" id="save-product">\(button)</button></p>
            </form>
            """
    }

    static func new(session: ConsoleSession, csrf: HTML, notice: Notice?, fields: ConsoleForm, categories: [CategoryCount]) -> ConsolePage {
        ConsolePage(
            title: "New product", session: session,
            body: """
                <p><a href="/console/products">All products</a></p>
                <h1>New product</h1>
                \(notice.map { $0.render(id: "product-note") } ?? .empty)
                \(editor(action: "/console/products", csrf: csrf, fields: fields, categories: categories, button: "Add the product"))
                """)
    }

    /// What a product's page shows beside the product itself.
    struct Details: Sendable {
        var product: ProductRecord
        var gallery: [ProductRecord.GalleryImage]
        var ages: ProductMinimumAge
        /// A manager's store: its own price and the product's stock there (nil: not carried).
        var storePrice: StorePrice?
        var aisles: [AisleRecord]
    }

    static func product(
        session: ConsoleSession, csrf: HTML, notice: Notice?, details: Details, fields: ConsoleForm, categories: [CategoryCount],
        isAdmin: Bool
    ) -> ConsolePage {
        let product = details.product
        let state: HTML =
            product.discontinued
            ? "<p class=\"status status-cancelled\" id=\"product-state\">Discontinued: not on sale anywhere</p>"
            : "<p class=\"status status-completed\" id=\"product-state\">On sale</p>"
        let body: HTML =
            isAdmin
            ? adminSections(csrf: csrf, details: details, fields: fields, categories: categories)
            : managerSections(csrf: csrf, details: details, fields: fields)
        return ConsolePage(
            title: product.name, session: session,
            body: """
                <p><a href="/console/products">All products</a></p>
                <h1>\(product.name)</h1>
                \(state)
                \(notice.map { $0.render(id: "product-note") } ?? .empty)
                \(body)
                """)
    }

    private static func adminSections(csrf: HTML, details: Details, fields: ConsoleForm, categories: [CategoryCount]) -> HTML {
        let product = details.product
        let lifecycle: HTML =
            product.discontinued
            ? """
            <form method="post" action="/console/products/\(product.id)/restore" class="inline-form">\(csrf)
            <button type="submit" id="restore-product">Bring it back on sale</button></form>
            """
            : """
            <form method="post" action="/console/products/\(product.id)/discontinue" class="inline-form">\(csrf)
            <label><input type="checkbox" name="confirm" value="yes" id="confirm-discontinue"> Stop selling it in every store</label>
            <button type="submit" class="danger" id="discontinue-product">Discontinue</button></form>
            """
        return """
            <h2>The chain's details</h2>
            \(editor(action: "/console/products/\(product.id)", csrf: csrf, fields: fields, categories: categories, button: "Save"))
            <h2>Minimum age</h2>
            <form method="post" action="/console/products/\(product.id)/minimum-age" class="fields" id="minimum-age-form">\(csrf)
            <p class="field short"><label for="chain-minimum-age">Sold only to customers aged (empty: anyone)</label><input id="chain-minimum-age" name="minimumAge" inputmode="numeric" maxlength="3" value="\(fields["minimumAge"] ?? "")"></p>
            <p><button type="submit" id="save-minimum-age">Save the age</button></p>
            </form>
            <h2>Images</h2>
            \(gallery(csrf: csrf, product: product, images: details.gallery))
            <h2>On sale or not</h2>
            \(lifecycle)
            """
    }

    private static func gallery(csrf: HTML, product: ProductRecord, images: [ProductRecord.GalleryImage]) -> HTML {
        let items = images.map { image -> HTML in
            let places = images.indices.map { index -> HTML in
                "<option value=\"\(index)\"\(index == image.position ? " selected" : "")>\(index + 1)</option>"
            }
            return """
                <li class="gallery-item" id="image-\(image.position)">
                <img src="/v1/products/\(product.id)/images/\(image.position)" alt="\(image.altText)" width="120" height="120" loading="lazy">
                <form method="post" action="/console/products/\(product.id)/images/\(image.position)" class="fields">\(csrf)
                <p class="field wide"><label for="alt-\(image.position)">What it shows (for people who cannot see it)</label><input id="alt-\(image.position)" name="altText" maxlength="300" value="\(image.altText)"></p>
                <p class="field short"><label for="position-\(image.position)">Place</label><select id="position-\(image.position)" name="position">\(HTML.join(places))</select></p>
                <p><button type="submit" class="secondary" id="save-image-\(image.position)">Save</button></p>
                </form>
                <form method="post" action="/console/products/\(product.id)/images/\(image.position)/delete" class="inline-form">\(csrf)
                <button type="submit" class="danger" id="remove-image-\(image.position)">Remove</button></form>
                </li>
                """
        }
        let list: HTML = images.isEmpty ? "<p id=\"no-images\">No image yet.</p>" : "<ol class=\"gallery\" id=\"gallery\">\(HTML.join(items))</ol>"
        let upload: HTML =
            images.count > Catalogue.galleryPositions.upperBound
            ? "<p class=\"hint\">A product has at most ten images.</p>"
            : """
            <form method="post" action="/console/products/\(product.id)/images" enctype="multipart/form-data" class="fields" id="upload-image">\(csrf)
            <p class="field wide"><label for="image-file">A JPEG, PNG or WebP image</label><input id="image-file" name="image" type="file" accept="image/jpeg,image/png,image/webp" required></p>
            <p class="field wide"><label for="image-alt">What it shows</label><input id="image-alt" name="altText" maxlength="300"></p>
            <p><button type="submit" id="upload-image-button">Add the image</button></p>
            </form>
            """
        return "\(list)\(upload)"
    }

    private static func managerSections(csrf: HTML, details: Details, fields: ConsoleForm) -> HTML {
        let product = details.product
        let facts: HTML = """
            <dl class="facts" id="product-facts">
            <dt>SKU</dt><dd>\(product.sku)</dd>
            <dt>Barcode</dt><dd>\(product.barcode ?? "–")</dd>
            <dt>Brand</dt><dd>\(product.brand.isEmpty ? "–" : product.brand)</dd>
            <dt>Pack size</dt><dd>\(product.size.isEmpty ? "–" : product.size)</dd>
            <dt>Tax</dt><dd>\(product.taxClass.words)</dd>
            <dt>Category</dt><dd>\(product.category.isEmpty ? "–" : product.category)</dd>
            <dt>Minimum age</dt><dd>\(details.ages.holding.map { "\($0) or over" } ?? "Anyone")</dd>
            </dl>
            """
        guard let price = details.storePrice else { return facts }
        let own: HTML =
            price.own == nil
            ? "<p id=\"price-rule\">This store charges the chain's price, \(MoneyText.format(price.catalog)).</p>"
            : """
            <p id="price-rule">This store charges its own price, \(MoneyText.format(price.holding)); the chain's is \(MoneyText.format(price.catalog)).</p>
            <form method="post" action="/console/products/\(product.id)/price/delete" class="inline-form">\(csrf)
            <button type="submit" class="secondary" id="use-chain-price">Charge the chain's price</button></form>
            """
        let place = product.stock?.location
        let aisles = details.aisles.map { aisle -> HTML in
            "<option value=\"\(aisle.code)\"\(aisle.code == place?.aisleCode ? " selected" : "")>\(aisle.code) \(aisle.name)</option>"
        }
        let placeForm: HTML =
            product.stock == nil
            ? "<p class=\"hint\">This store does not carry it yet: set its stock on the <a href=\"/console/stock?q=\(product.sku)\">Stock</a> page first.</p>"
            : """
            <form method="post" action="/console/products/\(product.id)/place" class="fields" id="place-form">\(csrf)
            <p class="field"><label for="place-aisle">Aisle</label><select id="place-aisle" name="aisleCode">\(HTML.join(aisles))</select></p>
            <p class="field short"><label for="place-bay">Bay</label><input id="place-bay" name="bay" inputmode="numeric" maxlength="4" value="\(place?.bay.map(String.init) ?? "")"></p>
            <p class="field short"><label for="place-shelf">Shelf</label><input id="place-shelf" name="shelf" maxlength="20" value="\(place?.shelf ?? "")"></p>
            <p><button type="submit" id="save-place">Move it here</button></p>
            </form>
            """
        return """
            \(facts)
            <h2>Price in this store</h2>
            \(own)
            <form method="post" action="/console/products/\(product.id)/price" class="fields" id="store-price-form">\(csrf)
            <p class="field"><label for="store-price">This store's own price (\(price.catalog.currency))</label><input id="store-price" name="price" required inputmode="decimal" maxlength="15" placeholder="12.50" value="\(fields["storePrice"] ?? price.own.map { MoneyText.plain($0, price.catalog.currency) } ?? "")"></p>
            <p><button type="submit" id="save-store-price">Charge this</button></p>
            </form>
            <h2>Where it is in this store</h2>
            \(placeForm)
            """
    }
}
