import Foundation
import FulfilmentDomain

/// A product's own page, shown by `GET /shop/products/{slug}` (`getProduct` with its reviews,
/// `listReviews`) and by a refused form of it (a review, "helpful", a report, "tell me when it's
/// back"): its images in order with their text alternatives, name, brand, description, the
/// price with a sale's regular price, whether the store has it ("Only 2 left", out of stock with
/// "tell me when it's back"), where it is in this store, add to cart; then the rating and the
/// reviews (newest or most helpful, paged), writing one after a purchase, "helpful" and "report".
/// The page carries schema.org Product/Offer data (JSON-LD, a data block no browser runs) so a
/// search engine shows the price and whether it is in stock.
enum ShopProductView {
    struct Reviews: Sendable {
        var page: Page<Review>
        var order: Review.Order
        /// The signed-in customer's own review, to edit.
        var own: Review?
    }

    static func page(
        frame: ShopPageView.Frame, store: StoreRecord?, product: ProductRecord, reviews: Reviews, favourite: Bool, publicURL: String?
    ) -> ConsolePage {
        let here = ProductListView.path(product)
        let fields = ShopPageView.formFields(session: frame.session, back: here)
        let available = product.stock?.available ?? 0
        var price: HTML = "<strong id=\"price\">\(MoneyText.format(product.priceAmount, product.currency))</strong>"
        if let sale = product.sale {
            price =
                "\(price) <s id=\"regular-price\"><span class=\"visually-hidden\">was </span>\(MoneyText.format(sale.regularAmount, product.currency))</s> <span class=\"status status-completed\">Sale</span>"
            if let ends = sale.endsAt {
                price = "\(price) <span class=\"hint\">until \(TimeText.local(ends, in: nil))</span>"
            }
        }
        let canBuy = available > 0 && !product.discontinued && store != nil
        let add: HTML =
            canBuy
            ? """
            <form method="post" action="/shop/cart/items" class="fields" id="add-form">\(fields)
            <input type="hidden" name="productId" value="\(product.id)"><input type="hidden" name="mode" value="add">
            <span class="field"><label for="quantity">Quantity</label>
            <input id="quantity" name="quantity" type="number" inputmode="numeric" min="1" max="\(min(available, Cart.maximumQuantity))" value="1" class="qty"></span>
            <button type="submit" id="add-to-cart">Add to cart</button>
            </form>
            """
            : .empty
        // Out of stock: a favourite is told when it is back (the back-in-stock message).
        var back: HTML = .empty
        if !product.discontinued, available == 0, store != nil {
            back =
                frame.session == nil
                ? "<p id=\"tell-me\"><a href=\"/?next=\(SignInView.queryValue(here))\">Sign in</a> to be told when it is back.</p>"
                : favourite
                    ? "<p id=\"tell-me\" class=\"hint\">We will tell you when it is back: it is in your favourites.</p>"
                    : """
                    <form method="post" action="/shop/favourites/add" id="tell-me">\(fields)<input type="hidden" name="productId" value="\(product.id)">
                    <button type="submit" class="secondary" id="tell-me-button">Tell me when it's back</button></form>
                    """
        }
        let placeLine: HTML =
            store.map { "<p class=\"where\" id=\"where\">At \($0.name): \(ProductListView.whereText(product))</p>" }
            ?? "<p class=\"hint\"><a href=\"/shop/stores\">Choose your store</a> to see its price and where this is.</p>"
        let rating: HTML =
            product.rating.average.map {
                "<p id=\"rating\"><span aria-hidden=\"true\">\(stars($0))</span> \(String(format: "%.1f", $0)) out of 5 from \(product.rating.count == 1 ? "1 review" : "\(product.rating.count) reviews")</p>"
            } ?? "<p id=\"rating\" class=\"hint\">No reviews yet.</p>"
        return ShopPageView.page(
            product.name, frame: frame,
            body: """
                <article class="product-page" id="product-\(product.id)">
                \(gallery(product))
                <div class="product-facts">
                <h1>\(product.name)</h1>
                <p class="hint">\([product.brand, product.size, product.category].filter { !$0.isEmpty }.joined(separator: " · "))</p>
                \(rating)
                <p class="price">\(price)</p>
                <p class="stock \(available > 0 ? "in" : "out")" id="stock">\(ProductListView.stockText(product))</p>
                \(placeLine)
                \(add)
                \(back)
                \(product.description.isEmpty ? "" : "<p id=\"description\">\(product.description)</p>" as HTML)
                </div>
                </article>
                \(reviewsSection(frame: frame, product: product, reviews: reviews, fields: fields, here: here))
                \(structuredData(product, available: available, store: store, publicURL: publicURL))
                """)
    }

    /// Every image in order, each with its text alternative (the name when none was given).
    static func gallery(_ product: ProductRecord) -> HTML {
        guard !product.gallery.isEmpty else { return ProductListView.thumbnail(product) }
        let images = HTML.join(
            product.gallery.map { image in
                let alt = image.altText.isEmpty ? "\(product.name), picture \(image.position + 1)" : image.altText
                return
                    "<li><img src=\"/v1/products/\(product.id)/images/\(image.position)\" alt=\"\(alt)\" width=\"320\" height=\"320\"\(HTML(trusted: image.position == 0 ? "" : " loading=\"lazy\""))></li>"
            })
        return "<ul class=\"gallery\" id=\"gallery\" aria-label=\"Pictures\">\(images)</ul>"
    }

    static func stars(_ average: Double) -> String {
        let whole = max(0, min(5, Int(average.rounded())))
        return String(repeating: "★", count: whole) + String(repeating: "☆", count: 5 - whole)
    }

    private static func reviewsSection(frame: ShopPageView.Frame, product: ProductRecord, reviews: Reviews, fields: HTML, here: String) -> HTML {
        let order = reviews.order
        let sortLinks: HTML = """
            <p class="hint" id="review-order">Sort: \(order == .newest ? "<strong>newest</strong>" : "<a href=\"\(here)?reviews=newest\">newest</a>" as HTML) · \(order == .helpful ? "<strong>most helpful</strong>" : "<a href=\"\(here)?reviews=helpful\" id=\"sort-helpful\">most helpful</a>" as HTML)</p>
            """
        let items = HTML.join(
            reviews.page.items.map { review in
                let own = review.author.id != nil && review.author.id == frame.session?.identity.userID
                let actions: HTML =
                    frame.session == nil || own
                    ? .empty
                    : """
                    <form method="post" action="/shop/reviews/\(review.id)/helpful" class="inline-form">\(fields)<button type="submit" class="secondary" id="helpful-\(review.id)">Helpful</button></form>
                    <form method="post" action="/shop/reviews/\(review.id)/report" class="inline-form">\(fields)<input type="hidden" name="reason" value="Reported from the shop"><button type="submit" class="secondary" id="report-\(review.id)">Report</button></form>
                    """
                return """
                    <li class="review" id="review-\(review.id)">
                    <p><span aria-label="\(review.rating) out of 5 stars">\(stars(Double(review.rating)))</span> <strong>\(review.author.name)</strong> <span class="hint">\(TimeText.local(review.createdAt, in: nil))</span></p>
                    <div class="review-body">\(HTML(trusted: Markdown.html(review.bodyMarkdown)))</div>
                    <p class="hint">\(review.helpfulCount == 1 ? "1 person found this helpful" : "\(review.helpfulCount) people found this helpful")</p>
                    \(actions)
                    </li>
                    """
            })
        let more: HTML =
            reviews.page.nextCursor.map {
                "<p><a href=\"\(here)?reviews=\(order.rawValue)&amp;cursor=\(SignInView.queryValue($0))\" id=\"more-reviews\">More reviews</a></p>"
            } ?? .empty
        let write: HTML
        if frame.session == nil {
            write =
                "<p class=\"hint\" id=\"write-review\"><a href=\"/?next=\(SignInView.queryValue(here))\">Sign in</a> to review a product you bought.</p>"
        } else {
            let own = reviews.own
            let options = HTML.join(
                (1...5).reversed().map { n in
                    "<option value=\"\(n)\"\(HTML(trusted: own?.rating == n ? " selected" : ""))>\(n) star\(n == 1 ? "" : "s")</option>"
                })
            write = """
                <form method="post" action="\(here)/review" class="review-form" id="write-review">\(fields)
                <h3>\(own == nil ? "Write a review" : "Your review")</h3>
                <label for="review-rating">Your rating</label>
                <select id="review-rating" name="rating">\(options)</select>
                <label for="review-body">What did you think? (Markdown; at most \(Review.bodyLength) characters)</label>
                <textarea id="review-body" name="body" rows="4" maxlength="\(Review.bodyLength)">\(own?.bodyMarkdown ?? "")</textarea>
                <button type="submit" id="post-review">\(own == nil ? "Post review" : "Update review")</button>
                <p class="hint">Reviews are for products you collected.</p>
                </form>
                """
        }
        return """
            <section id="reviews" aria-labelledby="reviews-heading">
            <h2 id="reviews-heading">Reviews</h2>
            \(sortLinks)
            \(reviews.page.items.isEmpty ? "<p class=\"hint\" id=\"no-reviews\">No reviews yet.</p>" : "<ul class=\"reviews\">\(items)</ul>" as HTML)
            \(more)
            \(write)
            </section>
            """
    }

    /// schema.org Product with its Offer at this store, as a JSON-LD data block: escaped so no
    /// value can end the block (`<`, `>` and `&` as `\u` escapes).
    static func structuredData(_ product: ProductRecord, available: Int, store: StoreRecord?, publicURL: String?) -> HTML {
        var data: [String: Any] = [
            "@context": "https://schema.org", "@type": "Product", "name": product.name, "sku": product.sku,
        ]
        if !product.brand.isEmpty { data["brand"] = ["@type": "Brand", "name": product.brand] }
        if !product.description.isEmpty { data["description"] = product.description }
        if !product.size.isEmpty { data["size"] = product.size }
        if let barcode = product.barcode { data["gtin"] = barcode }
        if let publicURL {
            if product.hasImage { data["image"] = "\(publicURL)/v1/products/\(product.id)/image" }
            data["url"] = "\(publicURL)\(ProductListView.path(product))"
        }
        if let average = product.rating.average {
            data["aggregateRating"] = ["@type": "AggregateRating", "ratingValue": (average * 10).rounded() / 10, "reviewCount": product.rating.count]
        }
        if store != nil {
            data["offers"] = [
                "@type": "Offer", "priceCurrency": product.currency, "price": MoneyText.plain(product.priceAmount, product.currency),
                "availability": product.discontinued
                    ? "https://schema.org/Discontinued" : available > 0 ? "https://schema.org/InStock" : "https://schema.org/OutOfStock",
            ]
        }
        guard let json = try? JSONSerialization.data(withJSONObject: data, options: [.sortedKeys]) else { return .empty }
        let text = String(decoding: json, as: UTF8.self).replacingOccurrences(of: "<", with: "\\u003c")
            .replacingOccurrences(of: ">", with: "\\u003e").replacingOccurrences(of: "&", with: "\\u0026")
        return HTML(trusted: "<script type=\"application/ld+json\" id=\"product-data\">\(text)</script>")
    }
}
