import Foundation

extension Data {
    /// Lower-case hexadecimal, as PostgreSQL's `decode(..., 'hex')` reads it.
    package var hex: String { map { String(format: "%02x", $0) }.joined() }
}
