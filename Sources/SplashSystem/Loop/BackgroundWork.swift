// SPDX-License-Identifier: Apache-2.0
import CLinux
import Glibc

/// Work done on threads of its own (a snapshot's PNG, which takes longer
/// than a frame), its results handed back on the run loop's thread: an
/// event source whose descriptor becomes readable when a job is done. At
/// most `limit` jobs run at once; `submit` refuses more, so no client can
/// pile work up.
public final class BackgroundWork: EventSource {
  private let mailbox: Mailbox
  private let reader: FileDescriptor
  /// The completions of the jobs under way, by job number.
  private var completions: [Int: (Any) -> Void] = [:]
  private var nextJob = 0
  public let limit: Int

  public init(limit: Int = 2) throws(SystemError) {
    var ends: [Int32] = [0, 0]
    // Close-on-exec from the start: a program spawned meanwhile by another
    // thread must not inherit an end.
    guard pipe2(&ends, O_CLOEXEC | O_NONBLOCK) == 0 else { throw SystemError("pipe2", code: errno) }
    reader = FileDescriptor(rawValue: ends[0])
    mailbox = Mailbox(writer: ends[1])
    self.limit = limit
  }

  deinit { try? reader.close() }

  /// How many jobs are under way.
  public var running: Int { completions.count }

  /// Runs `work` on a thread of its own, then `done` with what it returned,
  /// on the thread that serves the run loop. False (nothing runs) when
  /// `limit` jobs are under way already or no thread could be started.
  /// `work` must use only what it was given: nothing else touches that
  /// until `done`.
  public func submit<Result>(_ work: @escaping () -> Result, done: @escaping (Result) -> Void) -> Bool {
    guard completions.count < limit else { return false }
    let number = nextJob
    let job = Job(number: number, mailbox: mailbox) { work() }
    var thread = pthread_t()
    let retained = Unmanaged.passRetained(job)
    let started = pthread_create(
      &thread, nil,
      { context in
        let job = Unmanaged<Job>.fromOpaque(context!).takeRetainedValue()
        job.run()
        return nil
      }, retained.toOpaque())
    guard started == 0 else {
      retained.release()
      return false
    }
    pthread_detach(thread)
    nextJob += 1
    completions[number] = { done($0 as! Result) }
    return true
  }

  public var descriptors: [FileDescriptor] { [reader] }

  public func handle(_ descriptor: FileDescriptor, events: PollEvents) {
    while case .bytes = reader.readAvailable() {}
    for (number, result) in mailbox.take() {
      completions.removeValue(forKey: number)?(result)
    }
  }

  /// One job: what to run, and where its result goes.
  private final class Job: @unchecked Sendable {
    let number: Int
    let mailbox: Mailbox
    let work: () -> Any

    init(number: Int, mailbox: Mailbox, work: @escaping () -> Any) {
      self.number = number
      self.mailbox = mailbox
      self.work = work
    }

    func run() { mailbox.post(number, work()) }
  }

  /// The results the jobs' threads leave for the run loop's, behind a lock,
  /// and the pipe that says one is there. It lives as long as its last
  /// job: a thread still running when the work is let go of finds it.
  private final class Mailbox: @unchecked Sendable {
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var results: [(Int, Any)] = []
    private let writer: Int32

    init(writer: Int32) {
      self.writer = writer
      pthread_mutex_init(lock, nil)
    }

    deinit {
      close(writer)
      pthread_mutex_destroy(lock)
      lock.deallocate()
    }

    func post(_ number: Int, _ result: Any) {
      pthread_mutex_lock(lock)
      results.append((number, result))
      pthread_mutex_unlock(lock)
      var byte: UInt8 = 1
      _ = write(writer, &byte, 1)
    }

    func take() -> [(Int, Any)] {
      pthread_mutex_lock(lock)
      defer {
        results = []
        pthread_mutex_unlock(lock)
      }
      return results
    }
  }
}
