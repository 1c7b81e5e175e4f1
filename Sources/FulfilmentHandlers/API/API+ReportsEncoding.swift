import Foundation

// The reports' figures that may be null (a share without decided orders, a percentile without
// measured ones) are required in the contract and written as `null` (the synthesized encoding
// omits nil), so a client reads "no figure" rather than a missing field.

extension Components.Schemas.MinutePercentiles {
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(count, forKey: .count)
        try container.encode(p50Minutes, forKey: .p50Minutes)
        try container.encode(p90Minutes, forKey: .p90Minutes)
    }
}

extension Components.Schemas.OnTimeDay {
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(date, forKey: .date)
        try container.encode(onTime, forKey: .onTime)
        try container.encode(late, forKey: .late)
        try container.encode(notYetDue, forKey: .notYetDue)
        try container.encode(cancelled, forKey: .cancelled)
        try container.encode(onTimeShare, forKey: .onTimeShare)
    }
}

extension Components.Schemas.OnTimeHour {
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(hour, forKey: .hour)
        try container.encode(onTime, forKey: .onTime)
        try container.encode(late, forKey: .late)
        try container.encode(onTimeShare, forKey: .onTimeShare)
    }
}

extension Components.Schemas.OnTimeReport {
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(storeId, forKey: .storeId)
        try container.encode(from, forKey: .from)
        try container.encode(to, forKey: .to)
        try container.encode(timeZone, forKey: .timeZone)
        try container.encode(onTime, forKey: .onTime)
        try container.encode(late, forKey: .late)
        try container.encode(notYetDue, forKey: .notYetDue)
        try container.encode(cancelled, forKey: .cancelled)
        try container.encode(onTimeShare, forKey: .onTimeShare)
        try container.encode(placedToReady, forKey: .placedToReady)
        try container.encode(readyToCollected, forKey: .readyToCollected)
        try container.encode(days, forKey: .days)
        try container.encode(hours, forKey: .hours)
    }
}
