/// Why a line cannot be split into words.
public enum ShellWordsProblem: Error, Equatable, Sendable, CustomStringConvertible {
  case unterminatedQuote(Character)
  case trailingBackslash

  public var description: String {
    switch self {
    case .unterminatedQuote(let quote): return "a \(quote) quote is not closed"
    case .trailingBackslash: return "a backslash ends the line"
    }
  }
}

/// Splits `line` into words as a POSIX shell does, without expanding
/// anything: blanks separate words; 'single quotes' keep everything up to
/// the next single quote; "double quotes" keep everything but a backslash
/// before \, ", $ or `; elsewhere a backslash keeps the next character.
public func splitShellWords(_ line: String) -> Result<[String], ShellWordsProblem> {
  var words: [String] = []
  var word = ""
  var inWord = false
  var characters = line.makeIterator()
  while let c = characters.next() {
    switch c {
    case " ", "\t", "\n", "\r":
      if inWord { words.append(word) }
      word = ""
      inWord = false
    case "'":
      inWord = true
      var closed = false
      while let q = characters.next() {
        if q == "'" {
          closed = true
          break
        }
        word.append(q)
      }
      if !closed { return .failure(.unterminatedQuote("'")) }
    case "\"":
      inWord = true
      var closed = false
      while let q = characters.next() {
        if q == "\"" {
          closed = true
          break
        }
        if q == "\\" {
          guard let next = characters.next() else { return .failure(.unterminatedQuote("\"")) }
          if !"\\\"$`".contains(next) { word.append("\\") }
          if next != "\n" { word.append(next) }
          continue
        }
        word.append(q)
      }
      if !closed { return .failure(.unterminatedQuote("\"")) }
    case "\\":
      guard let next = characters.next() else { return .failure(.trailingBackslash) }
      inWord = true
      word.append(next)
    default:
      inWord = true
      word.append(c)
    }
  }
  if inWord { words.append(word) }
  return .success(words)
}

/// `words` as one line that `splitShellWords` splits back into them:
/// words of plain characters as they are, others in single quotes.
public func shellQuoted(_ words: [String]) -> String {
  words.map { word in
    let plain =
      !word.isEmpty
      && word.unicodeScalars.allSatisfy { scalar in
        scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "_@%+=:,./-".unicodeScalars.contains(scalar)
      }
    if plain { return word }
    // A single quote cannot be quoted inside single quotes: close, escape it, reopen.
    return "'" + word.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
  }.joined(separator: " ")
}
