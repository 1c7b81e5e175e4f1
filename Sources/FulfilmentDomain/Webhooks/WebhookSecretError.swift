/// A stored webhook secret could not be opened. The description is for operators and managers
/// (it becomes the delivery's `lastError`) and never holds key material or a secret.
package enum WebhookSecretError: Error, Equatable, CustomStringConvertible {
    case noKeys
    case keyNotHeld(keyID: Int, endpoint: WebhookEndpointID)
    case notOpened(keyID: Int, endpoint: WebhookEndpointID)

    package var description: String {
        switch self {
        case .noKeys:
            "The endpoint's signing secret cannot be decrypted: this instance has no data keys."
        case .keyNotHeld(let keyID, _):
            "The endpoint's signing secret is encrypted with data key \(keyID), which this instance's keys folder does not hold "
                + "(copy \(DataKeyring.fileName(for: keyID)) from the instance that made it); the delivery is tried again later."
        case .notOpened(let keyID, _):
            "The endpoint's signing secret does not decrypt with data key \(keyID): the stored secret was altered or belongs to "
                + "another endpoint; the delivery is tried again later."
        }
    }
}
