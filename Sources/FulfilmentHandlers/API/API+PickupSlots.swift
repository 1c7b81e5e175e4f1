import Foundation
import FulfilmentDomain
import OpenAPIRuntime

/// A store's pickup calendar (its managers set it, its staff read it; `AccessMiddleware` checks
/// the store in the path, and the caller's `StoreScope` is in the query too), its rota (issue 47:
/// its manager or the chain's admin), the public list of bookable slots with their room, and a
/// customer moving their order.
extension API {

    func getStoreCalendar(_ input: Operations.GetStoreCalendar.Input) async throws -> Operations.GetStoreCalendar.Output {
        guard let store = StoreID(input.path.storeId) else { throw OrderError.storeNotFound }
        let calendar = try await services.pickupSlots.calendar(store: store, by: try Identity.required, logger: logger)
        return .ok(.init(body: .json(.init(calendar, store: store))))
    }

    func setStoreCalendar(_ input: Operations.SetStoreCalendar.Input) async throws -> Operations.SetStoreCalendar.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        guard let store = StoreID(input.path.storeId) else { throw OrderError.storeNotFound }
        let draft = CalendarDraft(
            timeZone: body.timeZone,
            openingHours: body.openingHours.map { .init(weekday: $0.weekday.rawValue, opens: $0.opens, closes: $0.closes) },
            closures: (body.closures ?? []).map { .init(date: $0.date, reason: $0.reason) },
            slotMinutes: body.slotMinutes, capacity: body.capacity, leadMinutes: body.leadMinutes, horizonDays: body.horizonDays,
            graceMinutes: body.graceMinutes, readyLeadMinutes: body.readyLeadMinutes)
        let calendar = try await services.pickupSlots.setCalendar(
            store: store, to: try StoreCalendar.validated(draft), by: try Identity.required, logger: logger)
        return .ok(.init(body: .json(.init(calendar, store: store))))
    }

    func getStoreRota(_ input: Operations.GetStoreRota.Input) async throws -> Operations.GetStoreRota.Output {
        guard let store = StoreID(input.path.storeId) else { throw OrderError.storeNotFound }
        let rota = try await services.pickupSlots.rota(store: store, by: try Identity.required, logger: logger)
        return .ok(.init(body: .json(try .init(rota, store: store))))
    }

    func setStoreRota(_ input: Operations.SetStoreRota.Input) async throws -> Operations.SetStoreRota.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        guard let store = StoreID(input.path.storeId) else { throw OrderError.storeNotFound }
        let draft = StoreRota.Draft(
            defaultPickers: body.defaultPickers, hours: body.hours.map { ($0.weekday.rawValue, $0.hour, $0.pickers) })
        let rota = try await services.pickupSlots.setRota(
            store: store, to: try StoreRota.validated(draft), by: try Identity.required, logger: logger)
        return .ok(.init(body: .json(try .init(rota, store: store))))
    }

    func listPickupSlots(_ input: Operations.ListPickupSlots.Input) async throws -> Operations.ListPickupSlots.Output {
        guard let store = StoreID(input.path.storeId) else { throw OrderError.storeNotFound }
        let days = input.query.days ?? 7
        guard (1...31).contains(days) else { throw SlotError.invalidQuery(field: "days", message: "days is 1 to 31.") }
        var from: LocalDate?
        if let text = input.query.from {
            guard let date = LocalDate(text) else { throw SlotError.invalidQuery(field: "from", message: "from is a date, YYYY-MM-DD.") }
            from = date
        }
        let (calendar, slots) = try await services.pickupSlots.available(store: store, from: from, days: days, now: services.clock(), logger: logger)
        let zone = calendar.timeZone
        return .ok(
            .init(
                body: .json(
                    .init(
                        timeZone: zone.identifier,
                        items: try slots.map { available in
                            try .init(
                                start: available.slot.start, end: available.slot.end, localStart: zone.localISO8601(available.slot.start),
                                localEnd: zone.localISO8601(available.slot.end), capacity: available.capacity, remaining: available.remaining,
                                status: .matching(available.room.status.rawValue),
                                fullBecause: available.room.fullBecause.map { try .matching($0.rawValue) })
                        },
                        nextCursor: nil))))
    }

    func changePickupSlot(_ input: Operations.ChangePickupSlot.Input) async throws -> Operations.ChangePickupSlot.Output {
        guard case .json(let body) = input.body else { throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send JSON.") }
        guard let id = OrderID(input.path.orderId) else { throw OrderError.orderNotFound }
        let identity = try Identity.required
        let order = try await services.pickupSlots.move(
            order: id, to: body.pickupSlot, by: identity, now: services.clock(), logger: logger)
        return .ok(.init(body: .json(try .init(order, for: identity))))
    }
}

extension Components.Schemas.StoreCalendar {
    init(_ calendar: StoreCalendar, store: StoreID) {
        self.init(
            storeId: store.description, timeZone: calendar.timeZone.identifier,
            openingHours: calendar.hours.map { range in
                .init(
                    weekday: .init(rawValue: StoreCalendar.weekdays[range.weekday - 1])!, opens: StoreCalendar.clock(range.opens),
                    closes: StoreCalendar.clock(range.closes))
            },
            closures: calendar.closures.map { .init(date: $0.date.description, reason: $0.reason.isEmpty ? nil : $0.reason) },
            slotMinutes: calendar.slotMinutes, capacity: calendar.capacity, leadMinutes: calendar.leadMinutes,
            horizonDays: calendar.horizonDays, graceMinutes: calendar.graceMinutes, readyLeadMinutes: calendar.readyLeadMinutes)
    }
}

extension Components.Schemas.StoreRota {
    init(_ view: RotaView, store: StoreID) throws {
        self.init(
            storeId: store.description, defaultPickers: view.rota.defaultPickers,
            hours: try view.rota.hours.map { hour in
                try .init(weekday: .matching(StoreCalendar.weekdays[hour.weekday - 1]), hour: hour.hour, pickers: hour.pickers)
            },
            utilisationPercent: view.utilisationPercent,
            estimate: .init(
                perOrderSeconds: view.estimate.perOrderSeconds, perLineSeconds: view.estimate.perLineSeconds,
                perUnitSeconds: view.estimate.perUnitSeconds, learnedFromBatches: view.estimate.batches,
                learnedAt: view.estimate.learnedAt))
    }
}

extension Components.Schemas.OrderPickupSlot {
    /// The slot in UTC, and in the store's local time when its zone is known.
    init(_ slot: PickupSlot, zone: TimeZone?) {
        self.init(
            start: slot.start, end: slot.end, localStart: zone?.localISO8601(slot.start), localEnd: zone?.localISO8601(slot.end))
    }
}

/// `"nextCursor": null` is written, as on every list (see `CursorList`), with the list's zone.
extension Components.Schemas.PickupSlotList {
    private enum Keys: String, CodingKey { case timeZone, items, nextCursor }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(timeZone, forKey: .timeZone)
        try container.encode(items, forKey: .items)
        try container.encode(nextCursor, forKey: .nextCursor)
    }
}
