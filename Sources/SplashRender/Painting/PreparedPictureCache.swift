// SPDX-License-Identifier: Apache-2.0
import Glibc
import SplashCore
import SplashSystem

/// The key a scene's prepared pictures are cached under: everything the
/// prepared pixels depend on, as text compared whole when a file is read.
/// `pictures` is the part that does not depend on the display (the source
/// files' identities, the layout's settings, this build), `slot` the same
/// without the identities (which files, not which contents), `display` the
/// rest (size, pixel form, turn). A file is named
/// "SLOT-DISPLAY-KEY.prepared" by their hashes: `--check` finds a picture
/// set's files for every display by the first, and a file written for a
/// slot and display replaces the one made before from other contents.
public struct PreparedCacheKey: Equatable, Sendable {
  public let pictures: String
  public let slot: String
  public let display: String

  public init(pictures: String, slot: String, display: String) {
    self.pictures = pictures
    self.slot = slot
    self.display = display
  }

  /// The key as a file stores it.
  public var text: String { pictures + display }

  public var fileName: String { "\(displayPrefix)\(hash(text)).prepared" }

  /// What the names of the files made for the same pictures (maybe other
  /// contents) on the same display start with.
  public var displayPrefix: String { "\(Self.slotPrefix(slot))\(hash(display))-" }

  /// What the names of the files made for `slot`'s pictures start with.
  public static func slotPrefix(_ slot: String) -> String { hash(slot) + "-" }
}

private func hash(_ text: String) -> String {
  var hash = StableHash()
  hash.add(text)
  return hash.hex
}

/// Where prepared pictures are kept between starts: a file per scene (the
/// pictures of one screen at one size, pixel form and turn) in the first of
/// `folders` that can be written, looked for in each. A file is used only
/// when it is a regular file of this user's that nobody else may write and
/// its header checks out for the key asked for (`PreparedCacheFile`); its
/// pixels are then mapped and drawn from where they lie. Anything else is
/// ignored, said, and replaced once the pictures are prepared again.
public struct PreparedPictureCache: Sendable {
  public let folders: [String]

  public init(folders: [String]) { self.folders = folders }

  /// The prepared pictures of one scene, read from `path`.
  public struct Entry {
    public let path: String
    /// What the source pictures were found to be when they were decoded.
    public let sources: [AssetID: ImageInfo]
    /// The prepared pictures, mapped.
    public let pictures: [AssetID: (pixels: Pixels, opaque: Bool)]
  }

  /// The scene cached under `key`, from the first folder that has a file
  /// for it that passes every check; and, for every file found and not
  /// used, why (one line each).
  public func load(_ key: PreparedCacheKey) -> (entry: Entry?, problems: [String]) {
    var problems: [String] = []
    for folder in folders {
      let path = folder + "/" + key.fileName
      guard Files.exists(path) else { continue }
      if let distrust = Files.distrust(folder: folder) {
        problems.append("\(printable(folder)): \(distrust)")
        continue
      }
      switch Self.read(path, key: key.text) {
      case .success(let entry): return (entry, problems)
      case .failure(let problem): problems.append("\(printable(path)): \(problem)")
      }
    }
    return (nil, problems)
  }

  private static func read(_ path: String, key: String) -> Result<Entry, PreparedCacheProblem> {
    let file: MappedFile
    do {
      file = try MappedFile(path, limit: Int(Int32.max), use: .pixels)
    } catch {
      return .failure(PreparedCacheProblem("cannot read it: \(error.phrase)"))
    }
    let status = file.status
    guard status.st_uid == geteuid(), status.st_mode & (S_IWGRP | S_IWOTH) == 0 else {
      return .failure(PreparedCacheProblem("not trusted: owned by uid \(status.st_uid) or writable by others"))
    }
    let parsed = PreparedCacheFile.parse(file.bytes.bindMemory(to: UInt8.self), fileLength: file.bytes.count)
    let contents: PreparedCacheFile
    switch parsed {
    case .success(let read): contents = read
    case .failure(let problem): return .failure(problem)
    }
    guard contents.key == key else {
      return .failure(PreparedCacheProblem("made for other pictures or another display"))
    }
    var sources: [AssetID: ImageInfo] = [:]
    for source in contents.sources {
      guard let asset = AssetID(pictureName: source.asset) else {
        return .failure(PreparedCacheProblem("names a picture splashd does not have: \(printable(source.asset))"))
      }
      sources[asset] = source.info
    }
    var pictures: [AssetID: (pixels: Pixels, opaque: Bool)] = [:]
    for picture in contents.pictures {
      guard let asset = AssetID(pictureName: picture.asset) else {
        return .failure(PreparedCacheProblem("names a picture splashd does not have: \(printable(picture.asset))"))
      }
      guard
        let pixels = Pixels(
          mapped: file, offset: picture.offset, width: picture.width, height: picture.height, pitch: picture.pitch,
          bytesPerPixel: picture.bytesPerPixel, format: picture.pixelFormat)
      else {
        return .failure(PreparedCacheProblem("its picture \(picture.asset) has a pixel format SDL does not take"))
      }
      pictures[asset] = (pixels, picture.opaque)
    }
    return .success(Entry(path: path, sources: sources, pictures: pictures))
  }

  /// Writes the scene under `key` into the first folder that can hold it
  /// (made if missing); returns the file written, or why each folder could
  /// not be written.
  public func store(
    _ key: PreparedCacheKey, sources: [AssetID: ImageInfo], pictures: [(asset: AssetID, pixels: Pixels, opaque: Bool)]
  ) -> Result<String, PreparedCacheProblem> {
    let entries = pictures.map { picture in
      let surface = picture.pixels.surface.pointee
      return PreparedPictureEntry(
        asset: picture.asset.name, opaque: picture.opaque, width: Int(surface.w), height: Int(surface.h),
        bytesPerPixel: Int(surface.format.pointee.BytesPerPixel), pitch: Int(surface.pitch),
        pixelFormat: surface.format.pointee.format)
    }
    let layout = PreparedCacheFile(
      key: key.text,
      sources: sources.sorted { $0.key.name < $1.key.name }.map {
        PreparedSourceEntry(asset: $0.key.name, info: $0.value)
      },
      pictures: entries)
    var failures: [String] = []
    for folder in folders {
      let path = folder + "/" + key.fileName
      do {
        try Files.makeDirectories(folder)
        if let distrust = Files.distrust(folder: folder) {
          failures.append("\(printable(folder)): \(distrust)")
          continue
        }
        try Files.writeAtomically(to: path) { fd throws(SystemError) in
          try Self.write(layout, pictures.map(\.pixels), to: fd)
        }
        // What this file replaces: the same pictures' files on the same display, from other contents.
        for name in (try? Files.entries(of: folder)) ?? []
        where name.hasPrefix(key.displayPrefix) && name.hasSuffix(".prepared") && name != key.fileName {
          Files.remove(folder + "/" + name)
        }
        return .success(path)
      } catch {
        failures.append("\(printable(folder)): \(error.phrase)")
      }
    }
    return .failure(PreparedCacheProblem("cannot write the prepared pictures: " + failures.joined(separator: "; ")))
  }

  /// Moves the file at `path`, written to a later folder because the
  /// earlier ones could not be written then (a root file system still read
  /// only, say), into the first folder that takes it now; the path it went
  /// to, or nil when it stays where it is.
  public func keepInEarlierFolder(_ path: String) -> String? {
    let name = Files.name(of: path)
    guard let index = folders.firstIndex(of: Files.directory(of: path)), index > 0,
      let bytes = try? MappedFile(path, limit: Int(Int32.max), use: .readOnce)
    else { return nil }
    for folder in folders[..<index] {
      let target = folder + "/" + name
      guard (try? Files.makeDirectories(folder)) != nil, Files.distrust(folder: folder) == nil,
        (try? Files.writeAtomically(to: target, { fd throws(SystemError) in try fd.writeAll(bytes.bytes) })) != nil
      else { continue }
      Files.remove(path)
      return target
    }
    return nil
  }

  private static func write(_ layout: PreparedCacheFile, _ pixels: [Pixels], to fd: FileDescriptor) throws(SystemError)
  {
    try fd.writeAll(layout.header)
    var written = layout.payloadStart
    for (entry, picture) in zip(layout.pictures, pixels) {
      try fd.writeAll([UInt8](repeating: 0, count: entry.offset - written))
      try fd.writeAll(UnsafeRawBufferPointer(start: picture.surface.pointee.pixels, count: entry.length))
      written = entry.offset + entry.length
    }
  }

  /// The files in the folders made for `pictures` (any display) that pass
  /// every check, with the display part of their key; for `--check`.
  public func entries(forPictures pictures: String, slot: String) -> [(path: String, display: String)] {
    let prefix = PreparedCacheKey.slotPrefix(slot)
    var found: [(path: String, display: String)] = []
    for folder in folders {
      for name in ((try? Files.entries(of: folder)) ?? []).sorted()
      where name.hasPrefix(prefix) && name.hasSuffix(".prepared") {
        let path = folder + "/" + name
        // A FIFO or device is never opened (its open or read could block).
        guard case .regular(let length) = try? Files.kind(of: path),
          let bytes = try? Files.readPrefix(of: path, count: PreparedCacheFile.maxHeaderText + 64),
          case .success(let contents) = bytes.withUnsafeBufferPointer({
            PreparedCacheFile.parse($0, fileLength: length)
          }),
          contents.key.hasPrefix(pictures)
        else { continue }
        found.append((path, String(contents.key.dropFirst(pictures.count))))
      }
    }
    return found
  }
}

extension AssetID {
  /// The asset a cache file names: one of the pictures a scene prepares.
  init?(pictureName name: String) {
    switch name {
    case "splash": self = .splash
    case "left": self = .left
    case "right": self = .right
    case "background": self = .background
    default: return nil
    }
  }
}
