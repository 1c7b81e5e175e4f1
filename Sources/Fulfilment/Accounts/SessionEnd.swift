/// Why a session was ended, as `sessions.ended_reason` records it.
enum SessionEnd: String, Sendable {
    case logout
    case disabled
    case passwordChanged = "password_changed"
}
