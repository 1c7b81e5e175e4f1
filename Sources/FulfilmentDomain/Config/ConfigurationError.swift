/// A setting the service cannot start with, said in one sentence that names the setting: the
/// `fulfilment` command prints it and exits non-zero instead of starting half-configured.
public struct ConfigurationError: Error, CustomStringConvertible, Equatable {
    public let description: String

    public init(_ description: String) { self.description = description }
}
