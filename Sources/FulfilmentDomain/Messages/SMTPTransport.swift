import CLibCurl
import Foundation

/// What became of one submission.
package enum SMTPOutcome: Sendable, Equatable {
    /// The server took the message (250 after the data); its reply.
    case accepted(reply: String)
    /// Worth trying again later: a 4xx reply, or a connection refused, dropped or timed out.
    case transient(SMTPFailure)
    /// Trying again will not help: a 5xx reply (an unknown recipient, credentials refused), or a
    /// server that does not offer the TLS this service requires or whose certificate does not verify.
    case permanent(SMTPFailure)
}

/// Why a submission failed: the server's reply when it gave one, and libcurl's account.
package struct SMTPFailure: Sendable, Equatable, CustomStringConvertible {
    /// The SMTP reply code (451, 550…), or nil when no reply explains the failure.
    package var code: Int?
    /// The server's words (its last failing reply, all lines), or "" without one.
    package var reply: String
    /// libcurl's description of the failure.
    package var detail: String

    package var description: String {
        reply.isEmpty ? detail : "\(detail): \(reply)"
    }
}

/// An address or message this transport will not put on the wire.
package struct SMTPTransportError: Error, CustomStringConvertible, Equatable {
    package var description: String
}

/// Submits messages by SMTP through libcurl (STARTTLS, AUTH and dot-stuffing are its), each on
/// a connection of its own, on a thread of its own (`BlockingCall`): libcurl's easy call blocks.
package struct SMTPTransport: Sendable {
    package var settings: SMTPSettings

    package init(settings: SMTPSettings) {
        self.settings = settings
    }

    /// Submits `message` (headers and body; line ends are made CRLF) from `from` to `to`.
    /// Any recipient refused fails the whole submission. Throws only for an address it will not
    /// send (empty, or holding a line break or angle bracket) or a thread it cannot start.
    package func send(from: String, to: [String], message: Data) async throws -> SMTPOutcome {
        guard !to.isEmpty else { throw SMTPTransportError(description: "a message needs at least one recipient") }
        for address in [from] + to where address.isEmpty || address.contains(where: { "\r\n\0<>".contains($0) }) {
            throw SMTPTransportError(description: "not an address to put in an SMTP command: \(address.debugDescription)")
        }
        let settings = settings
        let body = Self.crlf(message)
        return try await BlockingCall.run { SMTPSubmission(settings: settings, from: from, to: to, body: body).perform() }
    }

    /// `message` with every line ending CRLF (a lone CR or LF becomes one) and ending with one.
    static func crlf(_ message: Data) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(message.count + message.count / 32 + 2)
        var previous: UInt8 = 0
        for byte in message {
            if byte == 0x0A {
                if previous != 0x0D { out.append(0x0D) }
            } else if previous == 0x0D {
                out.append(0x0A)
            }
            out.append(byte)
            previous = byte
        }
        if previous == 0x0D {
            out.append(0x0A)
        } else if previous != 0x0A {
            out.append(contentsOf: [0x0D, 0x0A])
        }
        return out
    }
}

/// libcurl's global state, set up once before the first handle.
private let curlReady: CURLcode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))

/// One submission's handle and the state its callbacks share (on one thread).
private final class SMTPSubmission {
    let settings: SMTPSettings
    let from: String
    let to: [String]
    let body: [UInt8]
    var offset = 0
    /// Bytes of the server's replies not yet split into lines.
    var pending: [UInt8] = []
    /// The last complete reply, and the first 4xx/5xx one (libcurl may say QUIT after it).
    var lastReply = ""
    var failingReply: (code: Int, text: String)?

    init(settings: SMTPSettings, from: String, to: [String], body: [UInt8]) {
        self.settings = settings
        self.from = from
        self.to = to
        self.body = body
    }

    func perform() -> SMTPOutcome {
        guard curlReady == CURLE_OK, let handle = curl_easy_init() else {
            return .transient(SMTPFailure(code: nil, reply: "", detail: "libcurl could not start"))
        }
        defer { curl_easy_cleanup(handle) }
        var recipients: UnsafeMutablePointer<curl_slist>?
        for address in to { recipients = curl_slist_append(recipients, "<\(address)>") }
        defer { curl_slist_free_all(recipients) }
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        defer { errorBuffer.deallocate() }
        let configured = configure(handle, errorBuffer: errorBuffer, recipients: recipients)
        let result = configured == CURLE_OK ? curl_easy_perform(handle) : configured

        var responseCode = 0
        _ = fulfilment_curl_get_long(handle, CURLINFO_RESPONSE_CODE, &responseCode)
        let message = String(cString: errorBuffer)
        let detail = message.isEmpty ? String(cString: curl_easy_strerror(result)) : message
        if result == CURLE_OK {
            return .accepted(reply: lastReply)
        }
        let code = failingReply?.code ?? (responseCode >= 400 ? responseCode : nil)
        let failure = SMTPFailure(code: code, reply: failingReply?.text ?? "", detail: detail)
        if let code {
            return code < 500 ? .transient(failure) : .permanent(failure)
        }
        return Self.transientCodes.contains(result.rawValue) ? .transient(failure) : .permanent(failure)
    }

    /// Sets the handle's options; the first that libcurl refuses, or `CURLE_OK`.
    private func configure(_ handle: UnsafeMutableRawPointer, errorBuffer: UnsafeMutablePointer<CChar>, recipients: UnsafeMutablePointer<curl_slist>?)
        -> CURLcode
    {
        let context = Unmanaged.passUnretained(self).toOpaque()
        var failed = CURLE_OK
        func set(_ code: CURLcode) { if failed == CURLE_OK { failed = code } }
        set(fulfilment_curl_set_string(handle, CURLOPT_URL, settings.curlURL))
        set(fulfilment_curl_set_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer))
        // No signals: this runs on a thread among others (libcurl's timeouts would use SIGALRM).
        set(fulfilment_curl_set_long(handle, CURLOPT_NOSIGNAL, 1))
        set(fulfilment_curl_set_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(settings.connectTimeout)))
        set(fulfilment_curl_set_long(handle, CURLOPT_TIMEOUT_MS, Self.milliseconds(settings.totalTimeout)))
        set(fulfilment_curl_set_string(handle, CURLOPT_PROTOCOLS_STR, "smtp,smtps"))
        let tls: curl_usessl = settings.security == .plaintext ? CURLUSESSL_NONE : CURLUSESSL_ALL
        set(fulfilment_curl_set_long(handle, CURLOPT_USE_SSL, Int(tls.rawValue)))
        // Verification stays on (libcurl's default, said again here); a CA file only adds trust.
        set(fulfilment_curl_set_long(handle, CURLOPT_SSL_VERIFYPEER, 1))
        set(fulfilment_curl_set_long(handle, CURLOPT_SSL_VERIFYHOST, 2))
        if let caFile = settings.caFile { set(fulfilment_curl_set_string(handle, CURLOPT_CAINFO, caFile)) }
        if let username = settings.username { set(fulfilment_curl_set_string(handle, CURLOPT_USERNAME, username)) }
        if let password = settings.password { set(fulfilment_curl_set_string(handle, CURLOPT_PASSWORD, password.value)) }
        set(fulfilment_curl_set_string(handle, CURLOPT_MAIL_FROM, "<\(from)>"))
        set(fulfilment_curl_set_slist(handle, CURLOPT_MAIL_RCPT, recipients))
        set(fulfilment_curl_set_long(handle, CURLOPT_UPLOAD, 1))
        set(fulfilment_curl_set_long(handle, CURLOPT_INFILESIZE_LARGE, body.count))
        set(fulfilment_curl_set_read_callback(handle, readBody))
        set(fulfilment_curl_set_pointer(handle, CURLOPT_READDATA, context))
        // The debug callback sees the server's replies (and only those are kept: what this side
        // sends includes the AUTH exchange). It is called only with VERBOSE on; nothing is printed.
        set(fulfilment_curl_set_debug_callback(handle, readReplies))
        set(fulfilment_curl_set_pointer(handle, CURLOPT_DEBUGDATA, context))
        set(fulfilment_curl_set_long(handle, CURLOPT_VERBOSE, 1))
        return failed
    }

    /// Failures with no reply that a later attempt may not meet: the connection refused, cut or slow.
    static let transientCodes: Set<UInt32> = [
        CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_CONNECT, CURLE_OPERATION_TIMEDOUT, CURLE_SEND_ERROR, CURLE_RECV_ERROR,
        CURLE_GOT_NOTHING, CURLE_SSL_CONNECT_ERROR, CURLE_PARTIAL_FILE, CURLE_AGAIN, CURLE_WEIRD_SERVER_REPLY,
        CURLE_OUT_OF_MEMORY,
    ].reduce(into: []) { $0.insert($1.rawValue) }

    static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    }

    /// Takes one chunk of the server's replies (libcurl hands them over a line or more at a time).
    /// Bytes, not `String`: there "\r\n" is one character, and a search for "\n" misses it.
    func received(_ chunk: UnsafeRawBufferPointer) {
        pending.append(contentsOf: chunk)
        while let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
            var bytes = Array(pending[..<end])
            pending.removeSubrange(...end)
            if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
            let line = String(decoding: bytes, as: UTF8.self)
            replyLines.append(line)
            // "250-..." continues a reply; "250 ..." (or a bare "250") ends it.
            guard bytes.count < 4 || bytes[3] != UInt8(ascii: "-") else { continue }
            let reply = replyLines.joined(separator: "\n")
            replyLines = []
            lastReply = reply
            if failingReply == nil, let code = Int(line.prefix(3)), code >= 400 {
                failingReply = (code, reply)
            }
        }
    }

    var replyLines: [String] = []
}

/// libcurl's read callback: the next bytes of the message.
private func readBody(_ buffer: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    guard let buffer, let context else { return 0 }
    let submission = Unmanaged<SMTPSubmission>.fromOpaque(context).takeUnretainedValue()
    let length = min(size * count, submission.body.count - submission.offset)
    guard length > 0 else { return 0 }
    submission.body.withUnsafeBufferPointer { bytes in
        UnsafeMutableRawPointer(buffer).copyMemory(from: bytes.baseAddress! + submission.offset, byteCount: length)
    }
    submission.offset += length
    return length
}

/// libcurl's debug callback: keeps the server's replies, ignores the rest (which holds the AUTH exchange).
private func readReplies(
    _ handle: UnsafeMutableRawPointer?, _ kind: curl_infotype, _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ context: UnsafeMutableRawPointer?
) -> Int32 {
    guard kind == CURLINFO_HEADER_IN, let data, let context else { return 0 }
    let submission = Unmanaged<SMTPSubmission>.fromOpaque(context).takeUnretainedValue()
    submission.received(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
