// SPDX-License-Identifier: Apache-2.0
import SplashCore
import Testing

/// `[screen-power]`'s decisions: idle-off, the schedule (across midnight, a
/// clock set anew), input waking the screen, idle inhibitors, commands.
@Suite struct ScreenPowerTests {
  private func time(_ text: String) -> DayTime { DayTime(text)! }
  private func second(_ text: String) -> Double { Double(time(text).minutes * 60) }

  @Test func timesOfDayReadAsHoursAndMinutes() {
    #expect(DayTime("7:05")?.minutes == 425)
    #expect(DayTime("23:59")?.description == "23:59")
    #expect(DayTime("00:00")?.description == "00:00")
    for bad in ["24:00", "7:5", "07:60", "7", "", ":30", "07:30:00", "-1:00", "+7:00", "O7:00"] {
      #expect(DayTime(bad) == nil, "\(bad)")
    }
  }

  @Test func aScheduleNeedsBothListsAndNoTimeInBoth() {
    #expect(throws: ScreenSchedule.ScheduleError.incomplete) { try ScreenSchedule(onAt: [], offAt: [time("22:00")]) }
    #expect(throws: ScreenSchedule.ScheduleError.both(time("12:00"))) {
      try ScreenSchedule(onAt: [time("07:00"), time("12:00")], offAt: [time("12:00")])
    }
  }

  /// Off at 22:00, on at 07:00: off through the night, across midnight.
  @Test func theScheduleHoldsAcrossMidnight() throws {
    let schedule = try ScreenSchedule(onAt: [time("07:00")], offAt: [time("22:00")])
    #expect(schedule.isOn(atSecondOfDay: second("12:00")))
    #expect(!schedule.isOn(atSecondOfDay: second("22:00")))
    #expect(!schedule.isOn(atSecondOfDay: second("23:59")))
    #expect(!schedule.isOn(atSecondOfDay: second("00:00")))
    #expect(!schedule.isOn(atSecondOfDay: second("06:59")))
    #expect(schedule.isOn(atSecondOfDay: second("07:00")))
    #expect(schedule.secondsToNextSwitch(after: second("21:00")) == 3600)
    #expect(schedule.secondsToNextSwitch(after: second("23:00")) == 8 * 3600)
  }

  /// Several ranges: on 07:00–12:00 and 13:00–22:00.
  @Test func severalRanges() throws {
    let schedule = try ScreenSchedule(onAt: [time("13:00"), time("07:00")], offAt: [time("22:00"), time("12:00")])
    #expect(schedule.isOn(atSecondOfDay: second("08:00")))
    #expect(!schedule.isOn(atSecondOfDay: second("12:30")))
    #expect(schedule.isOn(atSecondOfDay: second("13:00")))
    #expect(!schedule.isOn(atSecondOfDay: second("03:00")))
  }

  @Test func idleOffAfterItsSecondsWithoutInput() {
    var power = ScreenPower(idleOff: 30, schedule: nil, now: 0)
    #expect(power.decide(now: 0, secondOfDay: 0, inhibited: false, applies: true) == 30)
    #expect(power.decide(now: 10, secondOfDay: 0, inhibited: false, applies: true) == 30)
    #expect(power.isOn)
    #expect(power.decide(now: 30, secondOfDay: 0, inhibited: false, applies: true) == nil)
    #expect(!power.isOn && power.offBecause == .idle)
    // Input wakes it, and counts again from then.
    power.activity(at: 40)
    #expect(power.decide(now: 40, secondOfDay: 0, inhibited: false, applies: true) == 70)
    #expect(power.isOn && power.offBecause == nil)
  }

  /// A video playing (an idle inhibitor) holds idle-off off; idle time
  /// counts from when it ends.
  @Test func anInhibitorHoldsIdleOff() {
    var power = ScreenPower(idleOff: 30, schedule: nil, now: 0)
    #expect(power.decide(now: 100, secondOfDay: 0, inhibited: true, applies: true) == 130)
    #expect(power.isOn)
    _ = power.decide(now: 129, secondOfDay: 0, inhibited: false, applies: true)
    #expect(power.isOn)
    _ = power.decide(now: 130, secondOfDay: 0, inhibited: false, applies: true)
    #expect(!power.isOn)
  }

  /// An inhibitor that comes while the screen is off (a page's video
  /// starting on a timer) leaves it off.
  @Test func anInhibitorDoesNotWakeAScreenThatIdledOff() {
    var power = ScreenPower(idleOff: 30, schedule: nil, now: 0)
    _ = power.decide(now: 0, secondOfDay: 0, inhibited: false, applies: true)
    _ = power.decide(now: 30, secondOfDay: 0, inhibited: false, applies: true)
    #expect(!power.isOn)
    _ = power.decide(now: 40, secondOfDay: 0, inhibited: true, applies: true)
    #expect(!power.isOn)
  }

  /// While the splash shows, idle time does not count: it counts from the
  /// first decision after.
  @Test func nothingIdlesWhileTheSplashShows() {
    var power = ScreenPower(idleOff: 30, schedule: nil, now: 0)
    _ = power.decide(now: 100, secondOfDay: 0, inhibited: false, applies: false)
    #expect(power.isOn)
    let next = power.decide(now: 100.9, secondOfDay: 0, inhibited: false, applies: true)
    #expect(next == 130.9 && power.isOn)
  }

  /// An inhibitor that goes counts as input for idle-off, without waking a
  /// screen that is off.
  @Test func anInhibitorsEndCountsAsInput() {
    var power = ScreenPower(idleOff: 30, schedule: nil, now: 0)
    _ = power.decide(now: 10, secondOfDay: 0, inhibited: true, applies: true)
    power.inhibitionEnded(at: 25)
    let next = power.decide(now: 25, secondOfDay: 0, inhibited: false, applies: true)
    #expect(next == 55 && power.isOn)
    power.forceOff()
    _ = power.decide(now: 26, secondOfDay: 0, inhibited: false, applies: true)
    power.inhibitionEnded(at: 27)
    _ = power.decide(now: 27, secondOfDay: 0, inhibited: false, applies: true)
    #expect(!power.isOn)
  }

  /// The schedule wins: off at off-at whatever the input just before or an
  /// inhibitor; input then wakes it for idle-off, and the schedule's on
  /// time turns it on with nobody there.
  @Test func theScheduleWins() throws {
    let schedule = try ScreenSchedule(onAt: [time("07:00")], offAt: [time("22:00")])
    var power = ScreenPower(idleOff: 60, schedule: schedule, now: 0)
    let evening = second("21:59")
    _ = power.decide(now: 0, secondOfDay: evening, inhibited: true, applies: true)
    #expect(power.isOn)
    power.activity(at: 59)
    _ = power.decide(now: 60, secondOfDay: evening + 60, inhibited: true, applies: true)
    #expect(!power.isOn && power.offBecause == .schedule)
    // A touch at night: on for idle-off seconds after it.
    power.activity(at: 100)
    #expect(power.decide(now: 100, secondOfDay: evening + 100, inhibited: true, applies: true) == 160)
    #expect(power.isOn)
    _ = power.decide(now: 160, secondOfDay: evening + 160, inhibited: true, applies: true)
    #expect(!power.isOn && power.offBecause == .schedule)
    // 07:00: on, with no input, and idle-off counts from then.
    let morning = second("07:00")
    _ = power.decide(now: 1000, secondOfDay: morning, inhibited: false, applies: true)
    #expect(power.isOn)
    _ = power.decide(now: 1060, secondOfDay: morning + 60, inhibited: false, applies: true)
    #expect(!power.isOn && power.offBecause == .idle)
  }

  /// Without idle-off, a touch in the schedule's off hours wakes the
  /// screen for `wakeDuringOffHours`; in its on hours it is always on.
  @Test func withoutIdleOffTheScheduleAlone() throws {
    let schedule = try ScreenSchedule(onAt: [time("07:00")], offAt: [time("22:00")])
    var power = ScreenPower(idleOff: 0, schedule: schedule, now: 0)
    _ = power.decide(now: 0, secondOfDay: second("12:00"), inhibited: false, applies: true)
    #expect(power.isOn)
    _ = power.decide(now: 5000, secondOfDay: second("12:00") + 5000, inhibited: false, applies: true)
    #expect(power.isOn)
    _ = power.decide(now: 6000, secondOfDay: second("23:00"), inhibited: false, applies: true)
    #expect(!power.isOn)
    power.activity(at: 6010)
    let wake = ScreenPower.wakeDuringOffHours
    let next = power.decide(now: 6010, secondOfDay: second("23:00") + 10, inhibited: false, applies: true)
    #expect(next == 6070)
    #expect(power.isOn)
    _ = power.decide(now: 6010 + wake, secondOfDay: second("23:00") + 10 + wake, inhibited: false, applies: true)
    #expect(!power.isOn)
  }

  /// The decision follows the wall clock, not the time since the last:
  /// a clock set forward into the off hours turns the screen off at the
  /// next decision (at most `longestWait` later), and set back, on again.
  @Test func aClockSetAnewIsFollowed() throws {
    let schedule = try ScreenSchedule(onAt: [time("07:00")], offAt: [time("22:00")])
    var power = ScreenPower(idleOff: 0, schedule: schedule, now: 0)
    #expect(power.decide(now: 0, secondOfDay: second("12:00"), inhibited: false, applies: true) == 60)
    #expect(power.isOn)
    _ = power.decide(now: 60, secondOfDay: second("23:00"), inhibited: false, applies: true)
    #expect(!power.isOn && power.offBecause == .schedule)
    _ = power.decide(now: 120, secondOfDay: second("09:00"), inhibited: false, applies: true)
    #expect(power.isOn)
  }

  /// `screen off` holds through input-less time and inhibitors, until
  /// input (or `screen on`) or the schedule's next switch.
  @Test func aCommandHoldsUntilInputOrTheNextSwitch() throws {
    var power = ScreenPower(idleOff: 0, schedule: nil, now: 0)
    power.forceOff()
    #expect(power.decide(now: 1, secondOfDay: 0, inhibited: true, applies: false) == nil)
    #expect(!power.isOn && power.offBecause == .command)
    power.activity(at: 2)
    _ = power.decide(now: 2, secondOfDay: 0, inhibited: false, applies: true)
    #expect(power.isOn)

    let schedule = try ScreenSchedule(onAt: [time("07:00")], offAt: [time("22:00")])
    var scheduled = ScreenPower(idleOff: 0, schedule: schedule, now: 0)
    _ = scheduled.decide(now: 0, secondOfDay: second("06:00"), inhibited: false, applies: true)
    scheduled.forceOff()
    _ = scheduled.decide(now: 10, secondOfDay: second("06:00") + 10, inhibited: false, applies: true)
    #expect(!scheduled.isOn)
    _ = scheduled.decide(now: 3600, secondOfDay: second("07:00"), inhibited: false, applies: true)
    #expect(scheduled.isOn)
  }
}
