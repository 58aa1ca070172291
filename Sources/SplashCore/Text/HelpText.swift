// SPDX-License-Identifier: Apache-2.0
/// The layout of help texts (`splashd --help`, `splashctl --help`): options
/// in a column, descriptions wrapped at 80 columns.
public enum HelpText {
  /// The width help text is wrapped to.
  public static let width = 80
  /// Where descriptions start.
  public static let column = 28

  /// One option: its label, then its help (and default) from `column` on.
  public static func entry(_ label: String, _ help: String, _ defaultText: String?, column: Int = column) -> String {
    let text = help + (defaultText.map { " [default: \($0)]" } ?? "")
    let body = wrap(text, indent: column)
    let prefix = "  " + label
    if prefix.count < column - 1 {
      return prefix + String(repeating: " ", count: column - prefix.count) + body.dropFirst(column) + "\n"
    }
    return prefix + "\n" + body + "\n"
  }

  /// `text` wrapped at `width` columns, every line indented by `indent`.
  public static func wrap(_ text: String, indent: Int) -> String {
    let margin = String(repeating: " ", count: indent)
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
      if !line.isEmpty && indent + line.count + 1 + word.count > width {
        lines.append(margin + line)
        line = ""
      }
      line += (line.isEmpty ? "" : " ") + word
    }
    lines.append(margin + line)
    return lines.joined(separator: "\n")
  }
}
