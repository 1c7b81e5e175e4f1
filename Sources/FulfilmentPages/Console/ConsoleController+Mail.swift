import Foundation
import FulfilmentDomain
import HTTPTypes
import Hummingbird
import QRReceipt

/// Mail (issue 44): `/console/mail`, every message of the manager's store (the admin's: every
/// one), newest first, sent or kept; `/console/mail/{id}`, one as its reader gets it, its HTML in a
/// sandboxed frame (`/console/mail/{id}/body`) with the pickup QR in place. The same domain
/// service as the API's `listMessages` and `getMessage`.
extension ConsoleController {
    func registerMail(on router: RouteCollection<AppRequestContext>) {
        router.get("/console/mail") { request, context in
            try await page(request, context, operation: "listMessages") { visit in
                let cursor = request.uri.queryParameters.get("cursor").map { String($0) }
                let messages = try await services.mail.newest(for: visit.identity, cursor: cursor, limit: 50, logger: visit.logger)
                return MailView.list(session: visit.session, messages: messages, sending: services.mail.isSending).response()
            }
        }
        router.get("/console/mail/:messageId") { request, context in
            let id = context.parameters.get("messageId") ?? ""
            return try await page(request, context, operation: "getMessage") { visit in
                guard let (message, mail) = try await readable(id, visit) else { return notFound(visit) }
                return MailView.detail(session: visit.session, message: message, mail: mail).response()
            }
        }
        // The HTML part alone, for the detail page's frame: sandboxed (no script, no forms, its own
        // origin), images only inline or over HTTPS, framed only by this site.
        router.get("/console/mail/:messageId/body") { request, context in
            let id = context.parameters.get("messageId") ?? ""
            return try await page(request, context, operation: "getMessage") { visit in
                guard let (_, mail) = try await readable(id, visit) else { return notFound(visit) }
                var html = mail.html
                for image in mail.images {
                    html = html.replacingOccurrences(
                        of: "cid:\(image.contentID)", with: "data:\(image.contentType);base64,\(image.data.base64EncodedString())")
                }
                var headers = ConsolePage.headers()
                headers[HTTPField.Name("Content-Security-Policy")!] =
                    "sandbox; default-src 'none'; img-src data: https:; style-src 'unsafe-inline'; frame-ancestors 'self'"
                headers[HTTPField.Name("X-Frame-Options")!] = "SAMEORIGIN"
                return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
            }
        }
    }

    /// Message `id` as its reader gets it (a reset's link withheld while mail is sent), if the
    /// visitor may read it: their store's for a manager, any for the chain's admin.
    private func readable(_ id: String, _ visit: PageVisit) async throws -> (MessageRecord, MailMessage)? {
        guard let id = MessageID(id), let message = try await services.mail.message(id, for: visit.identity, logger: visit.logger) else {
            return nil
        }
        return (message, try await services.mail.compose(message, reader: true, logger: visit.logger).0)
    }

    private func notFound(_ visit: PageVisit) -> Response {
        ConsolePage.message("Not found", "That message was not found.", session: visit.session, status: .notFound)
    }
}
