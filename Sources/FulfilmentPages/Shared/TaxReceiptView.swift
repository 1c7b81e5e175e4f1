import Foundation
import FulfilmentDomain

/// A VAT (or GCT) receipt (issue 48): the seller's name, address and registration number, the
/// date, the order's number, each line with its rate, and per rate the net, the tax and the
/// gross, as the tax authority asks a receipt to show them. Printable from the browser: one
/// column of tables, no script. The customer's (`/orders/{id}/tax-receipt`) and the store's
/// (`/console/orders/{id}/tax-receipt`) are the same page.
enum TaxReceiptView {
    /// The receipt, or nil when the order's store is in no jurisdiction (no tax to show).
    static func receipt(_ order: Order, zone: TimeZone?) -> HTML? {
        guard let seller = order.taxSeller, let breakdown = order.taxBreakdown else { return nil }
        let currency = order.total.currency
        let lines = order.lines.filter { $0.amount > 0 }.map { line -> HTML in
            let rate = line.tax.map { $0.taxClass == .exempt ? "exempt" : TaxBreakdown.percent($0.rateBasisPoints) } ?? "–"
            return """
                <tr><td data-label="Item">\(line.held) × \(line.name)</td><td data-label="\(seller.name)" class="amount">\(rate)</td>
                <td data-label="Amount" class="amount">\(MoneyText.format(line.amount, currency))</td></tr>
                """
        }
        let rates = breakdown.rates.map { rate -> HTML in
            let label = rate.exempt ? "Exempt" : TaxBreakdown.percent(rate.rateBasisPoints)
            return """
                <tr><th scope="row">\(label)</th><td data-label="Net" class="amount">\(MoneyText.format(rate.net, currency))</td>
                <td data-label="\(seller.name)" class="amount">\(MoneyText.format(rate.tax, currency))</td>
                <td data-label="Gross" class="amount">\(MoneyText.format(rate.gross, currency))</td></tr>
                """
        }
        let number: HTML = seller.number.map { "<p id=\"tax-number\">\(seller.name) registration number: <strong>\($0)</strong></p>" } ?? .empty
        let address: HTML = seller.address.isEmpty ? .empty : "<p id=\"tax-seller-address\">\(seller.address)</p>"
        return """
            <article class="tax-receipt" id="tax-receipt">
            <h1>\(seller.name) receipt</h1>
            <p id="tax-seller"><strong>\(seller.seller)</strong></p>
            \(address)
            \(number)
            <p id="tax-date">Order \(order.number), placed \(TimeText.local(order.createdAt, in: zone))</p>
            <table class="cards" id="tax-lines"><caption>What you bought (prices include \(seller.name))</caption>
            <thead><tr><th scope="col">Item</th><th scope="col">Rate</th><th scope="col">Amount</th></tr></thead>
            <tbody>\(HTML.join(lines))</tbody></table>
            <table class="cards" id="tax-rates"><caption>\(seller.name) per rate</caption>
            <thead><tr><th scope="col">Rate</th><th scope="col">Net</th><th scope="col">\(seller.name)</th><th scope="col">Gross</th></tr></thead>
            <tbody>\(HTML.join(rates))</tbody>
            <tfoot><tr><th scope="row">Total</th><td class="amount">\(MoneyText.format(breakdown.gross &- breakdown.tax, currency))</td>
            <td class="amount" id="tax-total">\(MoneyText.format(breakdown.tax, currency))</td>
            <td class="amount">\(MoneyText.format(breakdown.gross, currency))</td></tr></tfoot></table>
            <p class="hint">What the order costs now: lines picked short, refused or removed are not on it.</p>
            </article>
            """
    }

    /// "Includes GCT J$150.00" under an order's total, with a link to the receipt.
    static func summary(_ order: Order, receiptPath: String) -> HTML {
        guard let seller = order.taxSeller, let breakdown = order.taxBreakdown else { return .empty }
        return """
            <p id="order-tax">Includes \(seller.name) \(MoneyText.format(breakdown.tax, order.total.currency)) · <a href="\(receiptPath)" id="tax-receipt-link">\(seller.name) receipt</a></p>
            """
    }
}
