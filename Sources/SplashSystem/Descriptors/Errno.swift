// SPDX-License-Identifier: Apache-2.0
import Glibc

/// A failed system call: the call's name and the `errno` it set.
public struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
  public let call: String
  public let code: Int32
  /// What the failure means here, when the code's own text would mislead
  /// ("Inappropriate ioctl for device" → "not a framebuffer device").
  public let explanation: String?

  public init(_ call: String, code: Int32, reason explanation: String? = nil) {
    self.call = call
    self.code = code
    self.explanation = explanation
  }

  /// The explanation, else the C library's text for the code, such as
  /// "No such file or directory".
  public var reason: String { explanation ?? String(cString: strerror(code)) }

  /// The reason as it reads after a colon: "no such file or directory".
  public var phrase: String {
    let text = reason
    guard let first = text.first else { return text }
    return first.lowercased() + text.dropFirst()
  }
  public var description: String { "\(call): \(reason)" }
}

/// Runs a system call, retrying while it is interrupted by a signal (EINTR),
/// and throws `SystemError` when it fails (returns -1). The one place EINTR
/// is handled.
@discardableResult
public func retryingInterrupts<T: BinaryInteger>(_ call: String, _ body: () -> T) throws(SystemError) -> T {
  while true {
    let result = body()
    if result != -1 { return result }
    let code = errno
    if code != EINTR { throw SystemError(call, code: code) }
  }
}
