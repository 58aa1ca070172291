// SPDX-License-Identifier: Apache-2.0
import SplashCore
import SplashSettings

/// Bash completion for splashd and splashctl, made from the settings table
/// and splashctl's commands: every option, the values of enumerated ones,
/// file names where a file is asked for, splashctl's commands and their
/// arguments.
public enum Completion {
  /// The completion script for splashd; `display` completes to `auto` and
  /// `backEnds`.
  public static func splashd(backEnds: [String]) -> String {
    var cases: [String] = []
    var options: [String] = ["--config"]
    for spec in SettingsTable.all where spec.onCommandLine {
      options.append("--\(spec.key)")
      guard let placeholder = spec.form.placeholder else { continue }
      let values = spec.key == "display" ? ["auto"] + backEnds : spec.values.filter { !$0.contains("(") }
      cases.append("    --\(spec.key)) \(reply(values: values, placeholder: placeholder)) ;;")
    }
    cases.append("    --config) COMPREPLY=($(compgen -f -- \"$cur\")) ;;")
    cases.append("    --boot) \(reply(values: BootStage.allCases.map(\.rawValue), placeholder: "STAGE")) ;;")
    for action in CommandLineAction.allCases where action != .config {
      options.append("--\(action.rawValue)")
      if let short = action.shortName { options.append(short) }
    }
    return """
      # bash completion for splashd, made by splashd-docs from its settings table.
      _splashd() {
        local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} i
        for ((i = 1; i < COMP_CWORD; i++)); do
          # After --, the program and its arguments: complete as a command line.
          if [[ ${COMP_WORDS[i]} == -- ]]; then
            _command_offset $((i + 1)) 2>/dev/null
            return
          fi
        done
        case $prev in
      \(cases.joined(separator: "\n"))
          *)
            [[ $cur == -* ]] && COMPREPLY=($(compgen -W "\(options.joined(separator: " "))" -- "$cur"))
            ;;
        esac
      }
      complete -F _splashd splashd

      """
  }

  /// The completion script for splashctl.
  public static func splashctl() -> String {
    let commands = SplashctlUsage.commands
    let arguments = commands.compactMap { command -> String? in
      guard let placeholder = command.argument else { return nil }
      return "    \(command.name)) \(reply(values: command.values, placeholder: placeholder)) ;;"
    }
    return """
      # bash completion for splashctl, made by splashd-docs from its commands.
      _splashctl() {
        local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
        case $prev in
          --control) COMPREPLY=($(compgen -f -- "$cur")) ;;
      \(arguments.joined(separator: "\n"))
          *)
            if [[ $cur == -* ]]; then
              COMPREPLY=($(compgen -W "--control --help --version -h -V" -- "$cur"))
            else
              COMPREPLY=($(compgen -W "\(commands.map(\.name).joined(separator: " "))" -- "$cur"))
            fi
            ;;
        esac
      }
      complete -F _splashctl splashctl

      """
  }

  /// What completes a value: its enumerated values, file or folder names
  /// where the placeholder asks for one, else nothing.
  private static func reply(values: [String], placeholder: String) -> String {
    if !values.isEmpty { return "COMPREPLY=($(compgen -W \"\(values.joined(separator: " "))\" -- \"$cur\"))" }
    let words = placeholder.split(separator: "|").map(String.init)
    // compgen -f names folders too (an animation may be either).
    if words.contains(where: { $0 == "FILE" || $0 == "PATH" }) { return "COMPREPLY=($(compgen -f -- \"$cur\"))" }
    if words.contains(where: { $0.hasPrefix("DIR") }) { return "COMPREPLY=($(compgen -d -- \"$cur\"))" }
    return "COMPREPLY=()"
  }
}
