import Foundation
import FulfilmentClient
import OpenAPIRuntime
import Testing

@testable import Fulfilment
@testable import FulfilmentDomain
@testable import FulfilmentHandlers
@testable import FulfilmentPages

@Suite("The Swift client (FulfilmentClient) against the real service: sign in, the bearer token, the error type")
struct FulfilmentAPITests {
    @Test("an app registers, its token rides on every request, it reads its own account, finds a product, and a refusal is a FulfilmentError")
    func appStory() async throws {
        try await withApp { app in
            let store = try await app.createStore()
            let product = try await app.addProduct(store: store, name: "Bammy", onHand: 5)
            let api = FulfilmentAPI(baseURL: URL(string: app.baseURL)!)

            let email = "app-\(UUID().uuidString.prefix(8).lowercased())@example.com"
            let registered = try await api.client.register(
                body: .json(.init(email: email, name: "App User", password: "correct horse", passwordConfirmation: "correct horse")))
            api.token = try registered.created.body.json.token
            let me = try await api.client.getMe().ok.body.json
            #expect(me.email == email && me.role == .customer)

            let found = try await api.client.searchProducts(query: .init(q: "bammy", storeId: store)).ok.body.json.items
            #expect(found.map(\.id) == [product])

            do {
                api.token = nil
                _ = try await api.client.getMe()
                Issue.record("signed out, getMe answered")
            } catch let error as ClientError {
                let refusal = try #require(error.underlyingError as? FulfilmentError)
                #expect(refusal.status == 401 && !refusal.code.isEmpty && !refusal.message.isEmpty)
            }
            api.token = try registered.created.body.json.token
            do {
                _ = try await api.client.putReview(path: .init(productId: product), body: .json(.init(rating: 5)))
                Issue.record("a review without a collected order was accepted")
            } catch let error as ClientError {
                let refusal = try #require(error.underlyingError as? FulfilmentError)
                #expect(refusal.status == 403 && refusal.code == "not_purchased")
            }
        }
    }
}
