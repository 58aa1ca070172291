// SPDX-License-Identifier: Apache-2.0
/// A time of day to the minute, as `on-at` and `off-at` give it ("07:30").
public struct DayTime: Comparable, Hashable, Sendable, CustomStringConvertible {
  /// Minutes since midnight, 0 to 1439.
  public let minutes: Int

  public init?(minutes: Int) {
    guard (0..<Self.minutesADay).contains(minutes) else { return nil }
    self.minutes = minutes
  }

  /// "H:MM" or "HH:MM", 00:00 to 23:59; nil for anything else.
  public init?<Text: StringProtocol>(_ text: Text) {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
      parts.allSatisfy({ $0.allSatisfy { $0 >= "0" && $0 <= "9" } }), let hours = Int(parts[0]),
      let minutes = Int(parts[1]), hours < 24, minutes < 60
    else { return nil }
    self.init(minutes: hours * 60 + minutes)
  }

  public var description: String {
    let (hours, minutes) = (self.minutes / 60, self.minutes % 60)
    return (hours < 10 ? "0" : "") + String(hours) + ":" + (minutes < 10 ? "0" : "") + String(minutes)
  }

  public static func < (a: DayTime, b: DayTime) -> Bool { a.minutes < b.minutes }

  public static let minutesADay = 24 * 60
  public static let secondsADay = Double(minutesADay * 60)
}

/// `on-at` and `off-at`: the times of day, local time, the screen goes on
/// and off. Each time is a switch: between two of them the screen is as the
/// earlier one set it, across midnight too (off at 22:00 and on at 07:00 is
/// off through the night), so that the state at any time follows from the
/// clock alone and a clock that jumps is followed at once.
public struct ScreenSchedule: Equatable, Sendable {
  public let onAt: [DayTime]
  public let offAt: [DayTime]

  /// Throws when either list is empty, or a time is in both.
  public init(onAt: [DayTime], offAt: [DayTime]) throws(ScheduleError) {
    guard !onAt.isEmpty, !offAt.isEmpty else { throw .incomplete }
    if let both = onAt.first(where: offAt.contains) { throw .both(both) }
    self.onAt = onAt.sorted()
    self.offAt = offAt.sorted()
  }

  /// Why a schedule cannot be.
  public enum ScheduleError: Error, Equatable {
    /// One list is empty: the screen would go one way and never back.
    case incomplete
    /// This time is both an on and an off time.
    case both(DayTime)
  }

  /// Whether the screen is on at `second` of the day (0 to 86400): as the
  /// last switch at or before it left it, the day before's last when none
  /// is earlier today.
  public func isOn(atSecondOfDay second: Double) -> Bool {
    let minute = Int(second / 60)
    let lastOn = onAt.last { $0.minutes <= minute } ?? onAt.last!
    let lastOff = offAt.last { $0.minutes <= minute } ?? offAt.last!
    return since(lastOn, minute) < since(lastOff, minute)
  }

  /// Seconds from `second` of the day to the next switch (on or off).
  public func secondsToNextSwitch(after second: Double) -> Double {
    let times = (onAt + offAt).map { Double($0.minutes) * 60 }
    return times.map { $0 > second ? $0 - second : $0 + DayTime.secondsADay - second }.min()!
  }

  /// Minutes from `time` forward to `minute`, within a day.
  private func since(_ time: DayTime, _ minute: Int) -> Int {
    (minute - time.minutes + DayTime.minutesADay) % DayTime.minutesADay
  }
}

/// Whether host mode's screen is on (`[screen-power]`, `splashctl
/// screen`), decided from the input seen, the schedule, the program's idle
/// inhibitors and the commands; the owner does what it says (the display
/// off, input withheld) and asks again at the time it gives.
///
/// - `idle-off`: off after that many seconds without input while the
///   schedule has the screen on; an idle inhibitor (a video playing) holds
///   it off.
/// - The schedule wins: off at an `off-at` whatever the input before or an
///   inhibitor; input then wakes the screen for `idle-off` seconds after
///   the last of it (`wakeDuringOffHours` without `idle-off`).
/// - `screen off` holds until input, `screen on` or the next switch of the
///   schedule; `screen on` counts as input.
/// - While `applies` is false (the splash shows: the boot, a restart, a
///   question), only `screen off` darkens it, and idle time counts from
///   when it is true again.
public struct ScreenPower: Sendable {
  /// Why the screen is off.
  public enum Reason: String, Sendable {
    case idle = "idle-off"
    case schedule = "off-at"
    case command = "splashctl"
  }

  /// Seconds without input before the screen goes off; 0: never.
  public let idleOff: Double
  public let schedule: ScreenSchedule?
  /// How long input wakes a screen the schedule has off, when `idleOff` is 0.
  public static let wakeDuringOffHours = 300.0
  /// The longest between two decisions, so that a clock set anew is
  /// followed within it.
  public static let longestWait = 60.0

  /// Whether the screen is on, as last decided.
  public private(set) var isOn = true
  /// Why it is off; nil while it is on.
  public private(set) var offBecause: Reason?
  private var lastActivity: Double
  private var forcedOff = false
  /// What the schedule said at the last decision.
  private var scheduledOn: Bool?
  /// Whether idle-off and the schedule applied at the last decision.
  private var applied = false

  public init(idleOff: Double, schedule: ScreenSchedule?, now: Double) {
    self.idleOff = idleOff
    self.schedule = schedule
    lastActivity = now
  }

  /// Whether anything but a command ever turns the screen off.
  public var decidesOnItsOwn: Bool { idleOff > 0 || schedule != nil }

  /// A key, a touch or the pointer moved (or `screen on`), at `now`.
  public mutating func activity(at now: Double) {
    lastActivity = now
    forcedOff = false
  }

  /// A client's idle inhibitor went at `now`: idle time counts from then
  /// (a screen that is off stays off).
  public mutating func inhibitionEnded(at now: Double) {
    guard isOn, !forcedOff else { return }
    lastActivity = max(lastActivity, now)
  }

  /// `screen off`: off until input, `screen on` or the schedule's next switch.
  public mutating func forceOff() { forcedOff = true }

  /// Decides at `now` (the run loop's clock), `second` of the local day:
  /// sets `isOn` and `offBecause`, and returns when to decide again (nil:
  /// only when something happens).
  public mutating func decide(now: Double, secondOfDay second: Double, inhibited: Bool, applies: Bool) -> Double? {
    let scheduled = schedule?.isOn(atSecondOfDay: second) ?? true
    if let before = scheduledOn, before != scheduled {
      // A switch of the schedule wins over what came before it.
      forcedOff = false
      lastActivity = scheduled ? now : -.infinity
    }
    scheduledOn = scheduled
    var next = schedule.map { now + min(Self.longestWait, $0.secondsToNextSwitch(after: second)) }
    if forcedOff {
      set(on: false, .command)
      return next
    }
    // An inhibitor holds a screen on; it does not wake one that idled off.
    if !applies || !applied || (inhibited && scheduled && isOn) { lastActivity = now }
    applied = applies
    let limit = scheduled ? idleOff : (idleOff > 0 ? idleOff : Self.wakeDuringOffHours)
    if !applies || limit == 0 {
      set(on: true, nil)
      return next
    }
    let until = lastActivity + limit
    if now < until {
      set(on: true, nil)
      next = min(next ?? until, until)
    } else {
      set(on: false, scheduled ? .idle : .schedule)
    }
    return next
  }

  private mutating func set(on: Bool, _ reason: Reason?) {
    isOn = on
    offBecause = on ? nil : reason
  }
}
