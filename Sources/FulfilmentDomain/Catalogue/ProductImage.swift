import Crypto
import Foundation

/// An uploaded product image, accepted only when its bytes are a PNG or JPEG of at most
/// `maximumBytes`. The declared content type is never trusted: the magic bytes decide.
public struct ProductImage: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case png = "image/png"
        case jpeg = "image/jpeg"

        /// The kind the file's first bytes announce, if it is one we take.
        package static func sniff(_ bytes: some Collection<UInt8>) -> Kind? {
            let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            if bytes.starts(with: pngSignature) && bytes.count > pngSignature.count { return .png }
            // JPEG: SOI marker then the start of another marker.
            if bytes.starts(with: [0xFF, 0xD8, 0xFF]) && bytes.count > 3 { return .jpeg }
            return nil
        }
    }

    public static let maximumBytes = 2 * 1024 * 1024

    public let kind: Kind
    public let bytes: Data
    /// A strong ETag for the bytes.
    public var etag: String { "\"" + SHA256.hash(data: bytes).prefix(12).map { String(format: "%02x", $0) }.joined() + "\"" }
    package var sha256: Data { Data(SHA256.hash(data: bytes)) }

    /// Checks size and magic bytes; `declared` (the request's content type), when it names
    /// an image kind, must agree with the bytes.
    public init(bytes: Data, declared: Kind?) throws(CatalogueError) {
        guard bytes.count <= Self.maximumBytes else { throw .imageTooLarge(limit: Self.maximumBytes) }
        guard let kind = Kind.sniff(bytes) else { throw .unsupportedImage }
        if let declared, declared != kind {
            throw .imageTypeMismatch(declared: declared.rawValue, actual: kind.rawValue)
        }
        // The first bytes say what it claims to be; its header says how big it decodes.
        guard let header = ImageHeader(bytes, kind: kind) else { throw .unsupportedImage }
        guard header.isReasonable else { throw .imageDimensions(width: header.width, height: header.height) }
        self.kind = kind
        self.bytes = bytes
    }
}
