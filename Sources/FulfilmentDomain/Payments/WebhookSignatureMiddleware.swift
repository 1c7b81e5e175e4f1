import HTTPTypes
import OpenAPIRuntime

/// Checks the payment provider's webhook signature (`PaymentWebhookSignature`) over the raw
/// body before the OpenAPI layer decodes it, and passes on exactly the bytes it checked. Only
/// for `receivePaymentWebhook`.
package struct WebhookSignatureMiddleware: ServerMiddleware {
    package let secret: String?

    package init(secret: String?) {
        self.secret = secret
    }

    package func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard operationID == "receivePaymentWebhook" else { return try await next(request, body, metadata) }
        guard let secret, !secret.isEmpty else { throw OrderError.webhookNotConfigured }
        let bytes: [UInt8]
        do {
            if let body { bytes = try await [UInt8](collecting: body, upTo: PaymentWebhookSignature.maximumBody) } else { bytes = [] }
        } catch {
            throw OrderError.webhookBodyTooLarge
        }
        try PaymentWebhookSignature.verify(
            secret: secret, timestamp: request.headerFields[PaymentWebhookSignature.timestampHeader],
            signature: request.headerFields[PaymentWebhookSignature.signatureHeader], body: bytes)
        return try await next(request, HTTPBody(bytes), metadata)
    }
}
