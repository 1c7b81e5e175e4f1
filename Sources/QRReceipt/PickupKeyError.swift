/// Why a signing key or keyring could not be read, created or rotated.
public enum PickupKeyError: Error, Sendable, Hashable {
    /// A key file is not in the format described at ``PickupSigningKey``.
    case invalidKeyFile(path: String, reason: String)
    /// The keyring directory holds no key files.
    case noKeys(directory: String)
    /// ``PickupKeyring/generate(in:)`` found keys already there; load or rotate instead.
    case keysAlreadyExist(directory: String)
    /// Two keys claim the same id.
    case duplicateKeyID(PickupKeyID)
    /// Key id 65535 is in use: no id is left for a new key.
    case keyIDsExhausted
    /// A public key's bytes are not a valid Ed25519 public key.
    case invalidPublicKey(PickupKeyID)
    /// Reading, writing or listing files failed.
    case fileSystem(path: String, message: String)
}
