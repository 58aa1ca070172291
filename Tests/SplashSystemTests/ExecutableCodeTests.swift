// SPDX-License-Identifier: Apache-2.0
import Glibc
import SplashSystem
import Testing

/// A function of this executable's, by address.
private let codeOfThisExecutable: @convention(c) (Int32) -> Int32 = { $0 + 1 }
/// Writable data of this executable's: its address, for the first test.
nonisolated(unsafe) private var dataOfThisExecutable: Int32 = 7
/// Writable data the second test writes: a variable of its own, since the
/// tests run at once (taking the first one's address is an access to it,
/// which ThreadSanitizer saw race with a write here).
nonisolated(unsafe) private var dataKeptPastTheLetGo: Int32 = 7

@Suite struct ExecutableCodeTests {
  @Test func theReadOnlySegmentsHoldTheCodeAndNotTheWritableData() throws {
    let segments = ExecutableCode.readOnlySegments
    func held(_ address: UInt) -> Bool {
      segments.contains { $0.start <= address && address < $0.start + UInt($0.length) }
    }
    let pageSize = UInt(sysconf(Int32(_SC_PAGESIZE)))
    #expect(segments.allSatisfy { $0.start % pageSize == 0 && $0.length > 0 && UInt($0.length) % pageSize == 0 })
    #expect(held(unsafeBitCast(codeOfThisExecutable, to: UInt.self)))
    #expect(!held(withUnsafePointer(to: &dataOfThisExecutable) { UInt(bitPattern: $0) }))
  }

  @Test func whatRunsAfterTheCodeIsLetGoOfStillRunsAndTheDataStays() {
    dataKeptPastTheLetGo = 41
    ExecutableCode.letGoOfMappedPages()
    #expect(codeOfThisExecutable(dataKeptPastTheLetGo) == 42)
  }
}
