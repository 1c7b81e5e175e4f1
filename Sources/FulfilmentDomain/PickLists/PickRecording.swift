/// What recording one pick at the shelf came to, as `PickListQueries.recordPick` found the
/// order and its line under their locks.
package enum PickRecording {
    case recorded
    /// Someone else's pick landed in between and this one would now be too many.
    case overPick
    /// The order left the list (packaged or cancelled by hand, or the list was completed).
    case notOnList(status: String?)
}
