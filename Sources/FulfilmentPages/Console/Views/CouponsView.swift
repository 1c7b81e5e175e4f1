import Foundation
import FulfilmentDomain

/// Coupons, for managers, shown by `GET /console/coupons` and after its forms
/// (`POST /console/coupons`, `POST /console/coupons/{couponId}/end`): the coupons usable at the
/// store (its own and the chain's) with their redemptions and state, End on the store's live
/// ones, and the form that makes one.
enum CouponsView {
    static func page(session: ConsoleSession, csrf: HTML, notice: Notice?, coupons: [Coupon]) -> ConsolePage {
        let rows = coupons.map { couponRow($0, csrf: csrf) }
        let table: HTML =
            rows.isEmpty
            ? "<p class=\"hint\">No coupons yet.</p>"
            : """
            <table id="coupons" class="cards"><thead><tr><th>Code</th><th>Off</th><th>Conditions</th><th>Redeemed</th><th>State</th></tr></thead><tbody>\(rows)</tbody></table>
            """
        return ConsolePage(
            title: "Coupons", session: session,
            body: """
                <h1>Coupons</h1>
                \(notice.map { $0.render(id: "coupon-note") } ?? .empty)
                \(table)
                <h2>Make a coupon for this store</h2>
                <form method="post" action="/console/coupons" class="fields roomy" id="new-coupon">
                \(csrf)
                <label class="field">Code <input name="code" required pattern="[A-Za-z0-9_\\-]{3,32}" size="12"></label>
                <label class="field wide">Description <input name="description" maxlength="200"></label>
                <label class="field short">Percent off <input name="percentOff" inputmode="decimal" size="6" placeholder="10"></label>
                <label class="field short">or amount off <input name="amountOff" inputmode="decimal" size="8" placeholder="500.00"></label>
                <label class="field short">Minimum spend <input name="minimumSpend" inputmode="decimal" size="8"></label>
                <label class="field short">Uses in all <input name="redemptionLimit" type="number" min="1" class="count"></label>
                <label class="field short">Uses per customer <input name="perCustomerLimit" type="number" min="1" max="1000" class="count"></label>
                <button type="submit">Make</button>
                </form>
                """
        )
    }

    private static func couponRow(_ coupon: Coupon, csrf: HTML) -> HTML {
        let currency = coupon.currency ?? ""
        let off: String =
            switch coupon.off {
            case .percent(let points): "\(points / 100)\(points % 100 == 0 ? "" : String(format: ".%02d", points % 100)) %"
            case .amount(let amount): MoneyText.format(amount, currency)
            }
        var conditions: [String] = []
        if let minimum = coupon.minimumSpend { conditions.append("spend \(MoneyText.format(minimum, currency))+") }
        if let limit = coupon.perCustomerLimit { conditions.append("\(limit) per customer") }
        if let until = coupon.validUntil { conditions.append("until \(TimeText.format(until))") }
        if let from = coupon.validFrom { conditions.append("from \(TimeText.format(from))") }
        if !coupon.productIDs.isEmpty || !coupon.categories.isEmpty { conditions.append("some products only") }
        let end: HTML =
            coupon.store != nil && (coupon.state == .live || coupon.state == .upcoming)
            ? """
            <form method="post" action="/console/coupons/\(coupon.id)/end">\(csrf)<button type="submit" class="secondary">End</button></form>
            """
            : .empty
        return """
            <tr id="coupon-\(coupon.code.lowercased())-\(coupon.store == nil ? "chain" : "store")">
            <td><strong>\(coupon.code)</strong>\(coupon.store == nil ? " (chain)" : "")<br><span class="hint">\(coupon.description)</span></td>
            <td data-label="Off">\(off)</td>
            <td data-label="Conditions">\(conditions.isEmpty ? "none" : conditions.joined(separator: ", "))</td>
            <td data-label="Redeemed">\(coupon.redeemed)\(coupon.redemptionLimit.map { " of \($0)" } ?? "")</td>
            <td data-label="State">\(coupon.state.rawValue)\(end)</td>
            </tr>
            """
    }
}
