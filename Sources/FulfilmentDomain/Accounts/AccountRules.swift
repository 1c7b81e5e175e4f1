import Foundation

/// The rules an account's fields must meet, checked before anything is written.
package enum AccountRules {
    package static let minimumPasswordLength = 8
    /// bcrypt reads at most 72 bytes; longer passwords would be silently truncated.
    package static let maximumPasswordBytes = 72

    /// Trims and checks an email's shape (one `@`, a dotted domain, no spaces); returns it trimmed.
    package static func email(_ raw: String) throws(AccountError) -> String {
        let email = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard email.count <= 254, parts.count == 2, !parts[0].isEmpty,
            parts[1].contains("."), !parts[1].hasPrefix("."), !parts[1].hasSuffix("."),
            !email.contains(where: { $0.isWhitespace || $0.isNewline })
        else { throw .invalidEmail }
        return email
    }

    package static func name(_ raw: String) throws(AccountError) -> String {
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty, name.count <= 200 else { throw .invalidName }
        return name
    }

    package static func password(_ password: String, confirmation: String? = nil) throws(AccountError) {
        guard password.count >= minimumPasswordLength else { throw .passwordTooShort }
        guard password.utf8.count <= maximumPasswordBytes else { throw .passwordTooLong }
        if let confirmation, confirmation != password { throw .passwordMismatch }
    }
}
