// SPDX-License-Identifier: Apache-2.0
import Foundation
import SplashCore
import SplashDevices
import SplashRender
import SplashSystem
import SplashTestSupport
import Testing

@testable import SplashApp

/// The test sensor's pipe: its writer closed, its reader hangs up even
/// while a process spawned meanwhile runs (one another test spawns, with
/// every descriptor it inherits): the pipe is close-on-exec.
@Suite struct PipeAnglesTests {
  @Test func anUnpluggedSensorHangsUpWhileAChildRuns() throws {
    let sensor = PipeAngles()
    var pid: pid_t = 0
    let arguments: [UnsafeMutablePointer<CChar>?] = [strdup("sleep"), strdup("5"), nil]
    defer { for argument in arguments { free(argument) } }
    #expect(posix_spawn(&pid, "/bin/sleep", nil, nil, arguments, environ) == 0)
    defer {
      kill(pid, SIGKILL)
      var status: Int32 = 0
      waitpid(pid, &status, 0)
    }
    sensor.unplug()
    var ready = pollfd(fd: sensor.descriptor.rawValue, events: Int16(POLLIN), revents: 0)
    #expect(poll(&ready, 1, 1000) == 1 && ready.revents & Int16(POLLHUP) != 0)
  }
}
