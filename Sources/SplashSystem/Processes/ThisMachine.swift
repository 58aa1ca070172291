// SPDX-License-Identifier: Apache-2.0
import Glibc

/// What says which machine this is, for a technician at its screen: its
/// name, its addresses, the local time.
public enum ThisMachine {
  /// The machine's name (gethostname); "unknown" when it has none.
  public static func name() -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    guard gethostname(&buffer, buffer.count - 1) == 0 else { return "unknown" }
    let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return name.isEmpty ? "unknown" : name
  }

  /// Its addresses (IPv4 first, then IPv6), of the interfaces that are up,
  /// without loopback's; at most `limit`.
  public static func addresses(limit: Int = 8) -> [String] {
    var list: UnsafeMutablePointer<ifaddrs>?
    guard getifaddrs(&list) == 0, let first = list else { return [] }
    defer { freeifaddrs(list) }
    var v4: [String] = []
    var v6: [String] = []
    var entry: UnsafeMutablePointer<ifaddrs>? = first
    while let current = entry {
      defer { entry = current.pointee.ifa_next }
      let flags = Int32(bitPattern: current.pointee.ifa_flags)
      guard let address = current.pointee.ifa_addr, flags & Int32(IFF_UP) != 0,
        flags & Int32(IFF_LOOPBACK) == 0
      else { continue }
      let family = Int32(address.pointee.sa_family)
      guard family == AF_INET || family == AF_INET6 else { continue }
      var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
      let length = socklen_t(family == AF_INET ? MemoryLayout<sockaddr_in>.size : MemoryLayout<sockaddr_in6>.size)
      guard getnameinfo(address, length, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST) == 0 else { continue }
      let name = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      if family == AF_INET { v4.append(name) } else { v6.append(name) }
    }
    return Array((v4 + v6).prefix(limit))
  }

  /// Seconds since the Unix epoch now (the real-time clock, which may be
  /// set while splashd runs: for records, never for intervals).
  public static func unixTime() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
  }

  /// Seconds since local midnight now, by the real-time clock (which may be
  /// set anew while splashd runs) and the time zone.
  public static func localSecondOfDay() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    var seconds = now.tv_sec
    var parts = tm()
    guard localtime_r(&seconds, &parts) != nil else { return 0 }
    return Double(parts.tm_hour * 3600 + parts.tm_min * 60 + parts.tm_sec) + Double(now.tv_nsec) / 1e9
  }

  /// The local time now, for people ("2026-12-06 22:10:03 CET") and for a
  /// field ("2026-12-06T22:10:03+0100").
  public static func localTime() -> (text: String, field: String) {
    var now = time(nil)
    var parts = tm()
    guard localtime_r(&now, &parts) != nil else { return ("unknown", "unknown") }
    func formatted(_ format: String) -> String {
      var buffer = [CChar](repeating: 0, count: 64)
      let count = strftime(&buffer, buffer.count, format, &parts)
      return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
    return (formatted("%Y-%m-%d %H:%M:%S %Z"), formatted("%Y-%m-%dT%H:%M:%S%z"))
  }
}
