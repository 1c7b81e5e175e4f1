/// What a presented token turned out to be.
package enum SessionLookup: Sendable, Equatable {
    case live(Identity)
    /// A real session that went idle too long or outlived its maximum age.
    case expired
    /// No such session, or it was ended (logout, a disabled account, a password change).
    case unknown
}
