import Foundation
import FulfilmentDomain

// The catalogue's records as the contract's payloads.

extension Components.Schemas.Store {
    init(_ store: StoreRecord) {
        self.init(
            id: store.id.description, code: store.code, name: store.name, address: store.address,
            currency: store.currency, location: store.location.map(Components.Schemas.GeoPoint.init), newArrivalDays: store.newArrivalDays,
            reminderHours: store.reminderHours, logoUrl: store.logoURL, phone: store.phone, taxJurisdiction: store.taxJurisdiction,
            taxNumber: store.taxNumber)
    }
}

extension Components.Schemas.GeoPoint {
    init(_ point: GeoPoint) { self.init(lat: point.latitude, lng: point.longitude) }
}

extension GeoPoint {
    init(_ payload: Components.Schemas.GeoPoint) { self.init(latitude: payload.lat, longitude: payload.lng) }
}

extension Components.Schemas.Aisle {
    init(_ aisle: AisleRecord) throws {
        self.init(
            id: aisle.id.description, code: aisle.code, name: aisle.name, walkOrder: aisle.walkOrder,
            zone: try ZonePayload.matching(aisle.zone))
    }
}

extension Components.Schemas.Location {
    init(_ location: LocationRecord) throws {
        self.init(
            aisleId: location.aisleID.description, aisleCode: location.aisleCode, aisleName: location.aisleName,
            zone: try ZonePayload.matching(location.zone), bay: location.bay, shelf: location.shelf)
    }
}

extension Components.Schemas.Availability {
    init(_ stock: StockRecord) throws {
        self.init(
            storeId: stock.storeID.description, available: stock.available, inStock: stock.available > 0,
            located: stock.location != nil, location: try stock.location.map(Components.Schemas.Location.init))
    }
}

extension Components.Schemas.Product {
    init(_ product: ProductRecord) throws {
        let id = product.id.description
        self.init(
            id: id, sku: product.sku, barcode: product.barcode, name: product.name, brand: product.brand,
            description: product.description, category: product.category, size: product.size,
            taxClass: try .matching(product.taxClass.rawValue),
            price: .init(amount: product.priceAmount, currency: product.currency),
            regularPrice: product.sale.map { .init(amount: $0.regularAmount, currency: product.currency) }, saleEndsAt: product.sale?.endsAt,
            discontinued: product.discontinued,
            imageUrl: product.hasImage ? "/v1/products/\(id)/image" : nil,
            availability: try product.stock.map(Components.Schemas.Availability.init),
            rating: .init(average: product.rating.average, count: product.rating.count), slug: product.slug,
            images: product.gallery.isEmpty
                ? nil
                : product.gallery.map { .init(position: $0.position, url: "/v1/products/\(id)/images/\($0.position)", altText: $0.altText) })
    }
}

extension Components.Schemas.LocateResult {
    /// A product's place; with `ingredient`, for that ingredient of a recipe (`locate?recipeId=`).
    init(_ product: ProductRecord, ingredient: Recipe.Ingredient? = nil) throws {
        let location = product.stock?.location
        self.init(
            productId: product.id.description, name: product.name, brand: product.brand,
            located: location != nil, location: try location.map(Components.Schemas.Location.init),
            place: location?.sentence ?? LocationRecord.notLocatedSentence, available: product.stock?.available ?? 0,
            ingredientIndex: ingredient?.index, ingredient: ingredient?.text)
    }
}

extension Components.Schemas.StockEntry {
    init(_ product: ProductRecord, stock: StockRecord) throws {
        self.init(
            storeId: stock.storeID.description, productId: product.id.description, sku: product.sku,
            name: product.name, onHand: stock.onHand, reserved: stock.reserved, available: stock.available,
            minSupply: stock.minSupply, low: stock.isLow, location: try stock.location.map(Components.Schemas.Location.init))
    }
}
