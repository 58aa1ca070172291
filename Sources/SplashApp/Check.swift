// SPDX-License-Identifier: Apache-2.0
import SplashConfigFile
import SplashCore
import SplashRender
import SplashSystem

/// `--check`: the resolved settings as a config file, then what was derived
/// from them, as comments: the config file read, the program, the angle,
/// the canvas, each picture, and which back ends `auto` would try (judged
/// without taking the display).
enum Check {
  static func describe(_ plan: Plan, _ pictures: Pictures, dependencies: Dependencies) throws(Failure) -> String {
    let settings = plan.settings
    var lines = [SettingsTable.configText(settings)]
    if let file = plan.configFile {
      lines.append("; config file: \(file)")
    } else {
      lines.append("; config file: none (\(dependencies.defaultConfig) does not exist)")
    }
    if let program = plan.program {
      guard let handOff = HandOff(program: program, searchPath: dependencies.environment["PATH"]),
        let path = handOff.path
      else {
        throw Failure.badInput(
          "\(plan.programOrigin): cannot run \(printable(program[0])): \(Program.whyNotFound(program[0]))")
      }
      let mode = settings.handoff.readyNotify ? "spawned first (ready = notify)" : "run after the splash"
      lines.append("; program: \(path), \(mode) (\(plan.programOrigin))")
    } else {
      lines.append("; program: none")
    }
    if let source = plan.rotationSource { lines.append("; rotation \(plan.rotation.rawValue) from \(source)") }
    let canvas = plan.rotation.logicalSize(ofPhysical: settings.splash.effectiveSize)
    lines.append("; logical canvas \(canvas.description)")
    for (asset, image) in pictures.images.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
      let opacity = image.info.opaque ? "opaque" : "with transparency"
      let size = image.info.size
      let cost = DecodedImage.decodingCost(size.width, size.height, image.format)
      lines.append(
        "; \(asset.rawValue) picture \(size.description) \(image.format.rawValue), \(opacity), "
          + "\(megapixels(size.width * size.height)), \(mebibytes(cost * 4)) to decode")
    }
    lines.append(
      "; decoding the pictures takes \(mebibytes(pictures.budget.used * 4)) of the "
        + "\(mebibytes(pictures.budget.limit * 4)) they may take (--max-megapixels)")
    let request = plan.outputRequest(dependencies)
    let candidates = Outputs.candidates(settings, among: dependencies.backEnds, request: request)
    if settings.splash.display == "auto" && settings.splash.record == nil {
      lines.append("; display auto tries, in order:")
      for (backEnd, probe) in candidates {
        lines.append(";   \(backEnd.name): \(probe.tried ? "tried" : "skipped"): \(probe.reason)")
      }
    } else if let (backEnd, probe) = candidates.first {
      lines.append("; display \(backEnd.name): \(probe.reason)")
    }
    let control = settings.handoff.controlPath(runtimeDirectory: dependencies.environment["RUNTIME_DIRECTORY"])
    lines.append("; control socket: \(control ?? "none")")
    return lines.joined(separator: "\n") + "\n"
  }
}
