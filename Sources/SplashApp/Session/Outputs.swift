// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashRender
import SplashSettings

/// The display back ends, in the order `auto` tries them. A new back end is
/// one file in SplashRender (its `Output` and its `BackEnd` entry) and one
/// line here.
public enum Outputs {
  public static let registry: [BackEnd] = [
    WindowOutput.backEnd,
    KMSOutput.backEnd,
    SDLKMSOutput.backEnd,
    FramebufferOutput.backEnd,
    OffscreenOutput.backEnd,
  ]

  /// What `--help` says of each back end.
  public static func help(_ backEnds: [BackEnd]) -> [BackEndHelp] {
    backEnds.map { BackEndHelp(name: $0.name, help: $0.help) }
  }

  /// Checks that `settings` name a back end of `backEnds`, or auto.
  static func validate(_ settings: Settings, among backEnds: [BackEnd]) throws(Failure) {
    let name = settings.splash.display
    guard name != "auto", !backEnds.contains(where: { $0.name == name }) else { return }
    let names = listing(["auto"] + backEnds.map(\.name), last: "or")
    throw Failure.badInput("\(settings.origin(of: \.splash.display)): expected \(names), got \"\(name)\"")
  }

  /// The back ends to try for `settings`, in order, with what each probe
  /// said: the one named, offscreen alone for a recording, or for `auto`
  /// every one, each probed without taking the display.
  static func candidates(_ settings: Settings, among backEnds: [BackEnd], request: OutputRequest) -> [(
    backEnd: BackEnd, probe: Probe
  )] {
    if settings.splash.record != nil {
      return backEnds.filter { $0.name == OffscreenOutput.backEnd.name }.map {
        ($0, .tried("--record renders offscreen"))
      }
    }
    let name = settings.splash.display
    if name != "auto" {
      return backEnds.filter { $0.name == name }.map { ($0, .tried("--display \(name)")) }
    }
    return backEnds.map { ($0, $0.probe(request)) }
  }

  /// Opens the first of the candidates that opens. With `auto`, each that
  /// fails is logged with its reason and the next is tried; a back end
  /// asked for by name that fails is a runtime failure.
  static func open(_ settings: Settings, among backEnds: [BackEnd], request: OutputRequest, log: Log) throws(Failure)
    -> Output
  {
    let probed = candidates(settings, among: backEnds, request: request)
    let tried = probed.filter(\.probe.tried).map(\.backEnd)
    if settings.splash.display == "auto" && settings.splash.record == nil && tried.count == 1 {
      // Nothing but the last resort: say why.
      let reasons = probed.filter { !$0.probe.tried }.map(\.probe.reason)
      if !reasons.isEmpty { log.info("\(reasons.joined(separator: ", ")): using \(tried[0].name)") }
    }
    for (index, backEnd) in tried.enumerated() {
      do {
        return try backEnd.open(noting(request, for: backEnd, log: log))
      } catch {
        guard index + 1 < tried.count else { throw Failure.runtime("--display \(backEnd.name): \(error)") }
        log.info("display \(backEnd.name): \(error); trying \(tried[index + 1].name)")
      }
    }
    throw Failure.runtime("--display \(settings.splash.display): no back end to try")
  }

  /// `request` with its notes going to `log` as `backEnd`'s ("kms: …").
  static func noting(_ request: OutputRequest, for backEnd: BackEnd, log: Log) -> OutputRequest {
    var request = request
    request.note = { [log, name = backEnd.name] in log.info("\(name): \($0)") }
    return request
  }
}
