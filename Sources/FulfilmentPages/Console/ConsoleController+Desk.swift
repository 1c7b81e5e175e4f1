import Foundation
import FulfilmentDomain
import HTTPTypes
import Hummingbird
import QRReceipt

/// The collection desk, `/console/desk`: one always-focused box for a keyboard-wedge scanner
/// (or a pasted code, or the camera), the verdict big and plain, then take payment and hand
/// over. Scanning is `previewCollection`, paying `recordPayment`, handing over `collectOrder`:
/// the same access rules and the same `Collections`/`Payments` code as the API.
extension ConsoleController {
    func registerDesk(on router: RouteCollection<AppRequestContext>) {
        router.get("/console/desk") { request, context in
            try await page(request, context, operation: "previewCollection") { visit in
                try await deskPage(visit, verdict: nil, note: nil)
            }
        }
        router.post("/console/desk/scan") { request, context in
            try await page(request, context, operation: "previewCollection") { visit in
                guard let token = visit.form.text("token") else { return try await deskPage(visit, verdict: nil, note: nil) }
                // No scan: the number under the QR and a word of the customer's name (issue 46:
                // "1005" + Enter was "invalid code"), found as `findCollection` finds it.
                // The twelve letters under the QR: the receipt's own code, as good as a scan of it.
                if let code = PickupShortCode.typed(token) {
                    do {
                        let found = try await services.collections.find(shortCode: code, by: visit.identity, logger: visit.logger)
                        return try await deskPage(
                            visit, verdict: verdict(token: found.token, visit),
                            note: Notice(ok: true, text: "Found by the code under the QR, \(PickupShortCode.printed(code)): as a scan of it."))
                    } catch OrderError.orderNotFound {
                        return try await deskPage(
                            visit, verdict: nil,
                            note: Notice(
                                ok: false,
                                text:
                                    "No receipt with the code \(PickupShortCode.printed(code)) at this store. Check the letters, or type the order number and surname."
                            ),
                            status: .notFound)
                    }
                }
                if let lookup = DeskLookup(token) {
                    do {
                        let found = try await services.collections.find(lookup, by: visit.identity, logger: visit.logger)
                        return try await deskPage(
                            visit, verdict: verdict(token: found.token, visit),
                            note: Notice(
                                ok: true,
                                text:
                                    "Found by number and name, not by a scan: ask the customer to confirm they are \(found.customerName) before you hand over."
                            ))
                    } catch OrderError.orderNotFound {
                        return try await deskPage(
                            visit, verdict: nil,
                            note: Notice(
                                ok: false,
                                text: "No order \(lookup.number) with the name “\(lookup.surname)” at this store. Check both with the customer."),
                            status: .notFound)
                    }
                }
                if DeskLookup.isBareNumber(token) {
                    return try await deskPage(
                        visit, verdict: nil,
                        note: Notice(
                            ok: false,
                            text:
                                "That is an order number. Type it with the customer's surname, as “\(token.trimmingCharacters(in: .whitespaces)) Brown”, or scan their code."
                        ),
                        status: .unprocessableContent)
                }
                return try await deskPage(visit, verdict: verdict(token: token, visit), note: nil)
            }
        }
        router.post("/console/desk/payments") { request, context in
            try await page(request, context, operation: "recordPayment") { visit in
                let form = visit.form
                guard let token = form.text("token"), let order = form.text("orderId").flatMap(OrderID.init),
                    let amount = form.text("amount").flatMap(Int64.init), let currency = form.text("currency")
                else { return try await deskPage(visit, verdict: nil, note: nil) }
                let method: Payments.DeskMethod = form.text("method") == "card" ? .card : .cash
                var note: Notice
                do {
                    let payment = try await services.payments.record(
                        order: order, method: method, amount: Money(amount: amount, currency: currency), by: visit.identity.userID,
                        in: try StoreScope(staff: visit.identity), logger: visit.logger)
                    note = Notice(ok: true, text: "Paid \(MoneyText.format(payment.amount)) by \(method.rawValue).")
                } catch let refused as OrderError {
                    note = Notice(ok: false, text: refused.apiError.message)
                }
                return try await deskPage(visit, verdict: verdict(token: token, visit), note: note)
            }
        }
        router.post("/console/desk/collections") { request, context in
            try await page(request, context, operation: "collectOrder") { visit in
                guard let token = visit.form.text("token") else { return try await deskPage(visit, verdict: nil, note: nil) }
                let idChecked =
                    visit.form.text("idChecked") == "true"
                    ? IDConfirmation.Method(rawValue: visit.form.text("idCheckMethod") ?? "seen") ?? .seen : nil
                // The bags ticked "handed over" (issue 47), when the form listed them: one box per
                // bag, `bag-1`...`bag-50`, so the count is bounded by what an order can hold.
                let bagsHandedOver =
                    visit.form.text("bagsCounted") == "true"
                    ? OrderBag.count.filter { visit.form.text("bag-\($0)") == "handed" }.count : nil
                do {
                    let (_, order) = try await services.collections.collect(
                        token: token, by: .resolved(visit.identity), idChecked: idChecked, bagsHandedOver: bagsHandedOver,
                        logger: visit.logger)
                    return try await deskPage(visit, verdict: .handedOver(order), note: nil)
                } catch let refused as any APIErrorConvertible where refused is OrderError || refused is IDCheckError || refused is BagError {
                    return try await deskPage(
                        visit, verdict: verdict(token: token, visit), note: Notice(ok: false, text: refused.apiError.message),
                        status: refused.apiError.status)
                }
            }
        }
    }

    /// The customer's answer to a substitution, given at the desk (issue 27): the same
    /// `decideSubstitution` as the API, recorded by the staff member; then the verdict again.
    func registerDeskSubstitutions(on router: RouteCollection<AppRequestContext>) {
        router.post("/console/desk/substitutions") { request, context in
            try await page(request, context, operation: "decideSubstitution") { visit in
                let form = visit.form
                guard let token = form.text("token"), let order = form.text("orderId").flatMap(OrderID.init),
                    let substitution = form.text("substitutionId").flatMap(SubstitutionID.init)
                else { return try await deskPage(visit, verdict: nil, note: nil) }
                var note: Notice
                do {
                    let decided = try await services.substitutions.decide(
                        substitution, of: order, accept: form.text("decision") == "accept", by: visit.identity, logger: visit.logger)
                    let line = decided.lines.first { $0.substitute?.id == substitution }
                    note = Notice(
                        ok: true,
                        text: line?.isRejected == true
                            ? "Rejected: take \(line?.name ?? "it") out of the bag. New total \(MoneyText.format(decided.total))."
                            : "Kept: \(line?.name ?? "the substitute").")
                } catch let refused as SubstitutionError {
                    note = Notice(ok: false, text: refused.apiError.message)
                }
                return try await deskPage(visit, verdict: verdict(token: token, visit), note: note)
            }
        }
    }

    func registerRestrictedLines(on router: RouteCollection<AppRequestContext>) {
        router.post("/console/desk/restricted-lines") { request, context in
            try await page(request, context, operation: "removeRestrictedLines") { visit in
                guard let token = visit.form.text("token"), let order = visit.form.text("orderId").flatMap(OrderID.init) else {
                    return try await deskPage(visit, verdict: nil, note: nil)
                }
                var note: Notice
                do {
                    let changed = try await services.restrictedLines.remove(
                        from: order, by: visit.identity.userID, in: try StoreScope(staff: visit.identity), logger: visit.logger)
                    note = Notice(ok: true, text: "Age-restricted lines removed. New total \(MoneyText.format(changed.total)).")
                } catch let refused as any APIErrorConvertible where refused is OrderError || refused is IDCheckError {
                    note = Notice(ok: false, text: refused.apiError.message)
                }
                return try await deskPage(visit, verdict: verdict(token: token, visit), note: note)
            }
        }
    }

    private func verdict(token: String, _ visit: PageVisit) async throws -> DeskVerdict {
        DeskVerdict(scan: try await services.collections.inspect(token: token, by: visit.identity, logger: visit.logger), token: token)
    }

    func deskPage(_ visit: PageVisit, verdict: DeskVerdict?, note: Notice?, status: HTTPResponse.Status = .ok) async throws -> Response {
        let csrf = ConsolePage.csrfInput(visit.session)
        // Who is waiting at the kerb (issue 27), refreshed live by the page's script.
        let waiting = try await services.orders.arrivals(in: try StoreScope(staff: visit.identity), logger: visit.logger)
        return DeskView.page(session: visit.session, csrf: csrf, verdict: verdict, note: note, waiting: waiting, now: services.clock())
            .response(status: status)
    }
}
