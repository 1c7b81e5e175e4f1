extension PickRoute {
    /// The stop whose product `code` identifies, or `nil` if nothing on the pick list matches.
    ///
    /// Use it to find where a scanned item belongs; then ``PickStop/confirmPick(_:quantity:for:alreadyPicked:)``.
    public func stop(matching code: ScannedCode) -> PickStop? {
        for section in sections {
            if let stop = section.stops.first(where: { $0.identifies(code) }) { return stop }
        }
        return unlocated.first { $0.identifies(code) }
    }
}
