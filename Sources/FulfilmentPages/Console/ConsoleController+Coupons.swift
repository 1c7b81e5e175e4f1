import Foundation
import FulfilmentDomain
import HTTPTypes
import Hummingbird

/// Coupons, `/console/coupons`, for managers: the coupons usable at their store (its own and the
/// chain's) with their redemptions and state, a form to make one, and an End button on each of
/// the store's live ones. Each is its API operation (`listStoreCoupons`, `createStoreCoupon`,
/// `endStoreCoupon`) through `Coupons`, as the handlers call it.
extension ConsoleController {
    var coupons: Coupons { services.coupons }

    func registerCoupons(on router: RouteCollection<AppRequestContext>) {
        router.get("/console/coupons") { request, context in
            try await page(request, context, operation: "listStoreCoupons", store: { $0.storeID }) { visit in
                try await couponsPage(visit, notice: nil)
            }
        }
        router.post("/console/coupons") { request, context in
            try await couponAction(request, context, operation: "createStoreCoupon") { visit, owner in
                let form = visit.form
                let currency = try await coupons.currency(in: try StoreScope(staff: visit.identity), logger: visit.logger)
                let money = { (field: String) throws(CouponError) -> Coupons.Money? in
                    guard let text = form.text(field) else { return nil }
                    guard let amount = Self.minorUnits(text) else { throw .invalidField(field, "Write an amount such as 12.50.") }
                    return .init(amount: amount, currency: currency ?? "")
                }
                var basisPoints: Int?
                if let percent = form.text("percentOff") {
                    guard let points = Self.minorUnits(percent), points <= Int64(Int32.max) else {
                        throw CouponError.invalidField("percentOffBasisPoints", "Write a percentage such as 10 or 12.5.")
                    }
                    basisPoints = Int(points)
                }
                let coupon = try await coupons.create(
                    owner: owner, by: visit.identity.userID, code: form.text("code") ?? "", description: form.text("description"),
                    percentOffBasisPoints: basisPoints, amountOff: try money("amountOff"), minimumSpend: try money("minimumSpend"),
                    validFrom: nil, validUntil: nil,
                    redemptionLimit: try form.int("redemptionLimit", label: "The redemption limit", in: CouponDraft.limits),
                    perCustomerLimit: try form.int("perCustomerLimit", label: "The limit per customer", in: CouponDraft.perCustomerLimits),
                    productIDs: nil, categories: nil, logger: visit.logger)
                return "Coupon \(coupon.code) made."
            }
        }
        router.post("/console/coupons/:couponId/end") { request, context in
            let id = context.parameters.get("couponId") ?? ""
            return try await couponAction(request, context, operation: "endStoreCoupon") { visit, owner in
                let coupon = try await coupons.end(try CouponID.parse(id), owner: owner, by: visit.identity.userID, logger: visit.logger)
                return "Coupon \(coupon.code) ended."
            }
        }
    }

    /// "12.5" or "12.50" as hundredths (1250): minor units of an amount, basis points of a percentage.
    static func minorUnits(_ text: String) -> Int64? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, whole.count <= 12, whole.allSatisfy(\.isASCII), let units = Int64(whole), units >= 0
        else { return nil }
        var cents: Int64 = 0
        if parts.count == 2 {
            let fraction = parts[1]
            guard (1...2).contains(fraction.count), fraction.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int64(fraction) else {
                return nil
            }
            cents = fraction.count == 1 ? value * 10 : value
        }
        return units * 100 + cents
    }

    /// A manager's coupon form: the operation's check for their own store, then `body`; its
    /// sentence (or the refusal's) is shown above the list.
    private func couponAction(
        _ request: Request, _ context: AppRequestContext, operation: String,
        _ body: @escaping @Sendable (PageVisit, CouponOwner) async throws -> String
    ) async throws -> Response {
        try await storeForm(request, context, operation: operation, render: { try await couponsPage($0, notice: $1, status: $2) }) {
            try await body($0, .store($1))
        }
    }

    func couponsPage(_ visit: PageVisit, notice: Notice?, status: HTTPResponse.Status = .ok) async throws -> Response {
        let owner = CouponOwner.store(try StoreScope(staff: visit.identity))
        let page = try await coupons.list(owner: owner, limit: 100, cursor: nil, logger: visit.logger)
        let csrf = ConsolePage.csrfInput(visit.session)
        return CouponsView.page(session: visit.session, csrf: csrf, notice: notice, coupons: page.items).response(status: status)
    }
}
