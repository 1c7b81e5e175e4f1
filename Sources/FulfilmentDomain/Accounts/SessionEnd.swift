/// Why a session was ended, as `sessions.ended_reason` records it.
package enum SessionEnd: String, Sendable {
    case logout
    case disabled
    case passwordChanged = "password_changed"
}
