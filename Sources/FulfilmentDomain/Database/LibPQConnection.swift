import CLibPQ
import Foundation

/// A blocking libpq connection, used only where PostgresNIO cannot help: running migration
/// files, which hold many statements and need the simple-query protocol (`PQexec`).
///
/// Not for request handling: every call blocks its thread. Callers run it off the event loop.
package final class LibPQConnection {
    private let handle: OpaquePointer

    package struct Failure: Error, CustomStringConvertible {
        package var message: String
        package var sqlState: String?
        package var description: String { message }
    }

    package init(_ info: ConnectionInfo) throws {
        let pairs = info.options.sorted { $0.key < $1.key }
        let keys = pairs.map { strdup($0.key) } + [nil]
        let values = pairs.map { strdup($0.value) } + [nil]
        defer {
            for pointer in keys { free(pointer) }
            for pointer in values { free(pointer) }
        }
        let connection = keys.withUnsafeBufferPointer { keyBuffer in
            values.withUnsafeBufferPointer { valueBuffer in
                keyBuffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: keys.count) { k in
                    valueBuffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: values.count) { v in
                        PQconnectdbParams(k, v, 0)
                    }
                }
            }
        }
        guard let connection else { throw Failure(message: "out of memory connecting to PostgreSQL") }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(connection))
            PQfinish(connection)
            throw Failure(message: message.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        handle = connection
    }

    deinit { PQfinish(handle) }

    /// The server libpq connected to: of a list, the one `target_session_attrs` chose.
    package var endpoint: ConnectionInfo.Endpoint? {
        guard let host = PQhost(handle), let port = PQport(handle), let number = Int(String(cString: port)) else { return nil }
        return ConnectionInfo.Endpoint(host: String(cString: host), port: number)
    }

    /// Runs one or more statements with the simple-query protocol; returns the first column
    /// of every row of the last result.
    @discardableResult
    package func execute(_ sql: String) throws -> [[String?]] {
        try check(PQexec(handle, sql))
    }

    /// Runs one statement with bound text parameters (never interpolated into the SQL).
    @discardableResult
    package func execute(_ sql: String, parameters: [String]) throws -> [[String?]] {
        let copies = parameters.map { strdup($0) }
        defer { for pointer in copies { free(pointer) } }
        let result = copies.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: copies.count) {
                PQexecParams(handle, sql, Int32(copies.count), nil, $0, nil, nil, 0)
            }
        }
        return try check(result)
    }

    private func check(_ result: OpaquePointer?) throws -> [[String?]] {
        guard let result else {
            throw Failure(message: String(cString: PQerrorMessage(handle)))
        }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            let message = String(cString: PQresultErrorMessage(result))
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            throw Failure(message: message.trimmingCharacters(in: .whitespacesAndNewlines), sqlState: state)
        }
        var rows: [[String?]] = []
        for row in 0..<PQntuples(result) {
            rows.append(
                (0..<PQnfields(result)).map { column in
                    PQgetisnull(result, row, column) == 1 ? nil : String(cString: PQgetvalue(result, row, column))
                })
        }
        return rows
    }
}
