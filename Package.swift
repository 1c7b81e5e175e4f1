// swift-tools-version:6.2
import PackageDescription

/// The project's own targets build with no warning: a warning is an error here, in CI and on a laptop.
let strict: [SwiftSetting] = [.treatAllWarnings(as: .error)]

let package = Package(
    name: "fulfilment",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "fulfilment", targets: ["FulfilmentCLI"]),
        .executable(name: "qr-bench", targets: ["QRBench"]),
        .executable(name: "pick-bench", targets: ["PickBench"]),
        .executable(name: "stack-floor-bench", targets: ["StackFloorBench"]),
        .library(name: "QRReceipt", targets: ["QRReceipt"]),
        .library(name: "PickList", targets: ["PickList"]),
        .library(name: "Fulfilment", targets: ["Fulfilment"]),
        // The Swift client for the shops' apps (issue 28), generated from the same contract.
        .library(name: "FulfilmentClient", targets: ["FulfilmentClient"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/swift-openapi-hummingbird.git", from: "2.1.0"),
        .package(url: "https://github.com/apple/swift-openapi-generator.git", from: "1.14.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/JohnSundell/Ink.git", from: "0.6.0"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession.git", from: "1.4.0"),
        // Tests only: URLSession on Linux does not stream, so the client's live events are tested on this transport.
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client.git", from: "1.5.0"),
    ],
    targets: [
        // C libraries from Debian, wrapped as system libraries.
        .systemLibrary(name: "CQREncode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        // SMTP submission (issue 44): STARTTLS, AUTH and dot-stuffing are libcurl's.
        .systemLibrary(name: "CLibCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // libpng reports errors with longjmp; the setjmp lives here, in C, and returns an error code.
        .target(name: "CPNGWriter", dependencies: ["CPNG"]),

        .target(
            name: "QRReceipt",
            dependencies: [
                "CQREncode", "CPNGWriter",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
        .target(name: "PickList", swiftSettings: strict),
        // The service, split along the request path so the compiler holds the seams: the domain
        // (services, queries, SQL access, events, and the HTTP plumbing both doors share), the API's
        // handlers (the contract), the pages (console and shop), and the application that mounts
        // both doors on one router. A page cannot reach the API's handler type: it does not import it.
        .target(
            name: "FulfilmentDomain",
            dependencies: [
                "QRReceipt", "PickList", "CLibPQ", "CLibCurl",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                // The middlewares in front of the handlers, and the streamed bodies both doors send.
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                // RSA signatures (RS256 ID tokens of identity providers, issue 33).
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Ink", package: "Ink"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "FulfilmentHandlers",
            dependencies: [
                "FulfilmentDomain", "QRReceipt", "PickList",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("openapi.yaml")],
            swiftSettings: strict,
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        .target(
            name: "FulfilmentPages",
            dependencies: [
                "FulfilmentDomain", "QRReceipt", "PickList",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // The pages' stylesheet and scripts, as files (`ConsoleAssets` serves them).
            resources: [.copy("Assets")],
            swiftSettings: strict
        ),
        .target(
            name: "Fulfilment",
            dependencies: [
                "FulfilmentDomain", "FulfilmentHandlers", "FulfilmentPages", "QRReceipt",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "FulfilmentCLI",
            dependencies: [
                "Fulfilment", "FulfilmentDomain", "QRReceipt",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(name: "QRBench", dependencies: ["QRReceipt"], swiftSettings: strict),
        .executableTarget(name: "PickBench", dependencies: ["PickList"], swiftSettings: strict),
        .executableTarget(
            name: "StackFloorBench",
            dependencies: [
                "Fulfilment", "FulfilmentDomain", .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            swiftSettings: strict
        ),

        // The client: the contract's types and client (generated from Sources/FulfilmentClient/openapi.yaml,
        // a link to the service's), on URLSession, so it runs on iOS, macOS and Linux.
        .target(
            name: "FulfilmentClient",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
            ],
            // No `strict` here: this target is the generator's public output, which imports
            // `Foundation` publicly in files that then declare nothing public (its warnings are
            // the generator's, and the handwritten files here have none).
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        // Helpers the test targets share (running a program to completion).
        .target(name: "TestSupport", path: "Tests/TestSupport", swiftSettings: strict),
        .testTarget(
            name: "QRReceiptTests",
            dependencies: ["QRReceipt", "CPNGWriter", "TestSupport", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strict
        ),
        .testTarget(name: "PickListTests", dependencies: ["PickList", "TestSupport"], swiftSettings: strict),
        .testTarget(
            name: "FulfilmentTests",
            dependencies: [
                "Fulfilment", "FulfilmentDomain", "FulfilmentHandlers", "FulfilmentPages", "QRReceipt", "TestSupport", "FulfilmentClient",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
                // Tokens the tests forge, signed as an identity provider would (issue 33).
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
