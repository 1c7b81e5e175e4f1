import PostgresNIO

/// A value read from a column that this version of the code does not know: the database and the
/// code disagree (a newer version wrote it, or someone edited a row by hand). Reading it fails
/// and names the column and the value. It used to become a default without a word: an unknown
/// status read as `pending` (issue 43).
///
/// The service answers it as any unexpected error: a bare 500 (`ErrorMiddleware`), with this
/// description in the log (`ErrorLog`).
package struct UnknownStoredValue: Error, Equatable, CustomStringConvertible {
    /// The column (or, for a JSON column, `column.field`) the value was read from.
    package let column: String
    package let value: String

    package init(column: String, value: String) {
        self.column = column
        self.value = value
    }

    package var description: String { "column \(column) holds '\(value)', which this version does not know" }
}

extension RawRepresentable where RawValue == String {
    /// The case `raw` names, read from `column`; a value no case has is `UnknownStoredValue`.
    package static func stored(_ raw: String, column: String) throws(UnknownStoredValue) -> Self {
        guard let value = Self(rawValue: raw) else { throw UnknownStoredValue(column: column, value: raw) }
        return value
    }

    /// The same for a column that may be NULL: nil stays nil, an unknown value is still an error.
    package static func stored(_ raw: String?, column: String) throws(UnknownStoredValue) -> Self? {
        guard let raw else { return nil }
        guard let value = Self(rawValue: raw) else { throw UnknownStoredValue(column: column, value: raw) }
        return value
    }
}

extension PostgresCell {
    /// The case this text cell names, the cell's column named in the error when no case has it.
    package func stored<Value: RawRepresentable>(_: Value.Type) throws -> Value where Value.RawValue == String {
        try Value.stored(decode(String.self), column: columnName)
    }

    /// The same for a cell that may be NULL.
    package func stored<Value: RawRepresentable>(_: Value?.Type) throws -> Value? where Value.RawValue == String {
        try Value.stored(decode(String?.self), column: columnName)
    }
}
