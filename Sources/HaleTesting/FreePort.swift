#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A TCP port on 127.0.0.1 that was free a moment ago: the kernel picks it, and the socket is closed again.
public func freeLoopbackPort() throws -> Int {
    #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { throw TestSetupError("socket() failed") }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
            bind(descriptor, socketAddress, length) == 0 && getsockname(descriptor, socketAddress, &length) == 0
        }
    }
    guard bound else { throw TestSetupError("bind() on 127.0.0.1:0 failed") }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// Starts a loopback server on a port `freeLoopbackPort` picks: `start` makes it on that port and starts it, and
/// shuts it down again if starting fails. Another test may take the port between the pick and the bind, so a failed
/// start is tried again on a new port.
public func startOnFreeLoopbackPort<Server>(attempts: Int = 5, _ start: (Int) async throws -> Server) async throws
    -> Server
{
    var lastError: (any Error)?
    for _ in 0..<attempts {
        do {
            return try await start(try freeLoopbackPort())
        } catch {
            lastError = error
        }
    }
    throw lastError ?? TestSetupError("no loopback port could be bound")
}
