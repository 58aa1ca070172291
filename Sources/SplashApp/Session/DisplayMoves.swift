// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashDevices
import SplashRender
import SplashSettings
import SplashSystem

/// Where the splash goes when display devices come and go (`display =
/// auto`): to a card that appears while it shows on a framebuffer or in
/// memory, away from the card it shows on when that goes, and each screen
/// of its card its own scene when connectors are plugged or unplugged. The
/// stage does the moving; this decides where, by the back ends' traits.
final class DisplayMoves: DisplayMover {
  private let stage: Stage
  private let backEnds: [BackEnd]
  /// The request a back end is opened with.
  private let request: () -> OutputRequest
  /// Whether the splash still shows (nothing moves once it is done).
  private let showing: () -> Bool
  /// Whether the stage shows a hosted program (host mode, after the
  /// splash too): its screens are followed as they are plugged in and
  /// unplugged, but it does not move to another back end.
  private let hosting: () -> Bool
  private let clock: EventClock
  private let log: Log
  /// The last "staying on" line, not to repeat it.
  private var lastStay: String?

  init(
    stage: Stage, backEnds: [BackEnd], request: @escaping () -> OutputRequest, showing: @escaping () -> Bool,
    hosting: @escaping () -> Bool, clock: EventClock, log: Log
  ) {
    self.stage = stage
    self.backEnds = backEnds
    self.request = request
    self.showing = showing
    self.hosting = hosting
    self.clock = clock
    self.log = log
  }

  /// Whether the splash follows display devices as it shows on `output`:
  /// with `auto`, unless it plays in a desktop window or is recorded.
  static func follows(_ settings: Settings, on output: Output) -> Bool {
    settings.splash.display == "auto" && settings.splash.record == nil && !output.traits.contains(.desktop)
  }

  func displayChanged(_ event: DisplayDeviceEvent?, at time: Double) -> Bool {
    // Events lost: look at the first card that has a screen as if it changed.
    let event =
      event
      ?? DRMCards.firstConnected().map {
        DisplayDeviceEvent(change: .changed, kind: .card, node: "/dev/dri/card\($0.card)")
      }
    guard let current = stage.output, let event, event.kind == .card else { return false }
    let splashShows = showing()
    guard splashShows || hosting() else { return false }
    if let pluggable = current as? HotPluggableOutput {
      guard event.change == .removed, pluggable.showsOn(event.node) else {
        // A screen plugged in or unplugged, another card: each screen gets
        // its scene again. A card just added may not be usable yet.
        return refreshScreens(after: event) ? false : event.change == .added
      }
      guard splashShows else { return false }
      // The card drawn on went away: the next back end that shows neither
      // on a card nor in a window.
      return move(
        from: current, to: backEnds.filter { $0.traits.isDisjoint(with: [.card, .desktop]) }, device: nil,
        because: "\(event.node) went away", at: time)
    }
    // Already on a card (SDL's KMSDRM follows nothing), or the card left.
    guard splashShows, !current.traits.contains(.card), event.change != .removed,
      let cardBackEnd = backEnds.first(where: { $0.traits.contains(.card) })
    else { return false }
    return move(
      from: current, to: [cardBackEnd], device: event.node,
      because: "\(event.node) \(event.change == .added ? "appeared" : "changed")", at: time)
  }

  /// Lets the output look at its screens again after `event`; when they
  /// changed, each gets its scene and the frame is drawn on all. Whether
  /// they changed.
  private func refreshScreens(after event: DisplayDeviceEvent) -> Bool {
    do {
      guard try stage.screensChanged(on: event.node) else { return false }
    } catch {
      log.error("display: \(event.node) \(event.change.rawValue): \(error.message)")
      return true
    }
    let description = stage.output?.description ?? "none"
    log.info("display: \(event.node) \(event.change.rawValue): the screens are now \(description)")
    return true
  }

  /// Moves the splash from `current` to the first of `candidates` that
  /// opens (on `device`, the new card, when given); returns whether to look
  /// again shortly (nothing opened, and `current` is not a card that went
  /// away).
  private func move(
    from current: Output, to candidates: [BackEnd], device: String?, because reason: String, at time: Double
  ) -> Bool {
    var request = request()
    if let device {
      request.device = RequestedDevice(path: device, origin: "the new card")
    }
    var opened: Output?
    var failures: [String] = []
    for backEnd in candidates {
      do {
        opened = try backEnd.open(Outputs.noting(request, for: backEnd, log: log))
        break
      } catch {
        failures.append("\(backEnd.name): \(error)")
      }
    }
    guard let output = opened else {
      // Said once, however often the card is looked at again.
      let said = "display: \(reason); staying on \(current.name): " + failures.joined(separator: "; ")
      if said != lastStay { log.info(said) }
      lastStay = said
      return !(current is HotPluggableOutput)
    }
    lastStay = nil
    do {
      try stage.move(to: output)
    } catch {
      // What was shown stays where it was.
      log.error(
        "display: \(reason); cannot show the splash on \(output.name): \(error.message); staying on \(current.name)")
      return false
    }
    let delay = formatFixed(max(0, clock.now() - time) * 1000, decimals: 0)
    log.info(
      "display: moved from \(current.name) to \(output.name) (\(reason)), \(delay) ms later: \(output.description)")
    return false
  }
}
