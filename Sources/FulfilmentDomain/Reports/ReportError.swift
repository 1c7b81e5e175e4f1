import Foundation

/// A report asked for in a way it cannot be drawn (issue 46), as the client should hear it.
public enum ReportError: Error, APIErrorConvertible, Equatable {
    /// `from` or `to` is not a date `YYYY-MM-DD` between 2000 and 2100.
    case invalidDate(String)
    case rangeBackwards
    case rangeTooLong
    /// No such store, or not one the caller may read (one answer for both).
    case storeNotFound

    public var apiError: APIError {
        switch self {
        case .invalidDate(let field):
            .invalidField(field, "Give a date as YYYY-MM-DD, between 2000 and 2100.")
        case .rangeBackwards:
            .invalidField("from", "The first day comes before the last.")
        case .rangeTooLong:
            .invalidField("to", "A report covers at most \(ReportRange.maximumDays) days.")
        case .storeNotFound:
            APIError(.notFound, "store_not_found", "That store was not found.")
        }
    }
}
