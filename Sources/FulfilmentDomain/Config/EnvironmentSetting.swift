import Foundation

package enum EnvironmentSetting {
    /// A whole-number setting from the process environment, brought within `bounds`; nil when
    /// unset or not a number. Out-of-range values are clamped, not refused: a pool of 1,000
    /// means the most there may be.
    package static func integer(_ name: String, clampedTo bounds: ClosedRange<Int>) -> Int? {
        ProcessInfo.processInfo.environment[name].flatMap { Int($0) }.map { min(max($0, bounds.lowerBound), bounds.upperBound) }
    }
}
