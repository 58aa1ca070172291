// SPDX-License-Identifier: Apache-2.0
import SplashCore

/// Why a line cannot be split into words.
public enum ShellWordsProblem: Error, Equatable, Sendable, CustomStringConvertible {
  case unterminatedQuote(Unicode.Scalar)
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
/// It reads Unicode scalars, not characters: a quote followed by a
/// combining mark is still a quote, as it is to a shell.
public func splitShellWords(_ line: String) -> Result<[String], ShellWordsProblem> {
  var words: [String] = []
  var word = String.UnicodeScalarView()
  var inWord = false
  var characters = line.unicodeScalars.makeIterator()
  while let c = characters.next() {
    switch c {
    case " ", "\t", "\n", "\r":
      if inWord { words.append(String(word)) }
      word = String.UnicodeScalarView()
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
          if !"\\\"$`".unicodeScalars.contains(next) { word.append("\\") }
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
  if inWord { words.append(String(word)) }
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
    let pieces = word.unicodeScalars.split(separator: "'", omittingEmptySubsequences: false).map { String($0) }
    return "'" + pieces.joined(separator: "'\\''") + "'"
  }.joined(separator: " ")
}
