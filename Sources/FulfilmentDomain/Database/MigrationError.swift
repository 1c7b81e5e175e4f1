/// Why the ``Migrator`` stopped; each names the file at fault.
public enum MigrationError: Error, CustomStringConvertible, Equatable {
    case badFileName(String)
    case duplicateVersion(String, String)
    case checksumMismatch(file: String)
    case failed(file: String, message: String)

    public var description: String {
        switch self {
        case .badFileName(let file): "migration file \(file) must be named NNN_name.sql (a routine: routines/name[.view|.trigger].sql)"
        case .duplicateVersion(let a, let b): "migrations \(a).sql and \(b).sql share a number"
        case .checksumMismatch(let file):
            "migration \(file).sql was changed after it was applied; landed migrations must never be edited (add a new one instead)"
        case .failed(let file, let message): "migration \(file).sql failed: \(message)"
        }
    }
}
