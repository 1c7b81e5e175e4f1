import Foundation

/// A TCP socket connected to `127.0.0.1:port`, for the tests that need a connection of their own
/// rather than the test framework's client (a live event stream, a request head sent slowly).
func loopbackSocket(port: Int) throws -> Int32 {
    let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
    }
    guard connected else {
        Foundation.close(socket)
        throw TestSetupError("cannot connect to port \(port)")
    }
    return socket
}
