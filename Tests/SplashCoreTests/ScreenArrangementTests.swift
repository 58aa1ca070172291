// SPDX-License-Identifier: Apache-2.0
import SplashCore
import Testing

@Suite struct ScreenArrangementTests {
  static let landscape = PixelSize(width: 800, height: 600)
  static let portrait = PixelSize(width: 600, height: 800)
  static let wide = PixelSize(width: 1920, height: 1080)

  static func whole(_ size: PixelSize) -> PixelRect { PixelRect(x: 0, y: 0, width: size.width, height: size.height) }

  /// Every kind of sharing: the keywords' and one naming a screen.
  static let sharings: [ScreenSharing] = [.mirror, .extend, .last, .only("HDMI-A-1")]

  /// `canvases` as screens named as the status lists them: Virtual-1,
  /// Virtual-2, … on the first card.
  static func named(_ canvases: [PixelSize]) -> [(name: String, canvas: PixelSize)] {
    canvases.enumerated().map { ("Virtual-\($0.offset + 1)", $0.element) }
  }

  @Test func oneScreenShowsTheWholeWindowWhateverTheSharing() {
    for sharing in Self.sharings {
      let arranged = sharing.arrangement(of: Self.named([Self.landscape]))
      #expect(arranged?.window == Self.landscape)
      #expect(
        arranged?.views == [Placement(source: Self.whole(Self.landscape).rect, destination: Self.whole(Self.landscape))]
      )
      #expect(arranged?.inputScreen == 0)
    }
  }

  @Test func noScreensNoArrangement() {
    for sharing in Self.sharings { #expect(sharing.arrangement(of: []) == nil) }
  }

  /// A mirror: the first screen's canvas, shown whole on one of the same
  /// size and fitted (aspect kept, centred) on another.
  @Test func aMirrorIsTheFirstScreenFittedOnEachOther() throws {
    let arranged = try #require(
      ScreenSharing.mirror.arrangement(of: Self.named([Self.landscape, Self.landscape, Self.portrait])))
    #expect(arranged.window == Self.landscape && arranged.inputScreen == 0)
    let window = Self.whole(Self.landscape).rect
    #expect(arranged.views[0] == Placement(source: window, destination: Self.whole(Self.landscape)))
    #expect(arranged.views[1] == Placement(source: window, destination: Self.whole(Self.landscape)))
    // 800x600 in 600x800: 600x450, centred at y 175.
    #expect(
      arranged.views[2] == Placement(source: window, destination: PixelRect(x: 0, y: 175, width: 600, height: 450)))
  }

  /// Extended: side by side, tops in line, each screen its own part.
  @Test func extendedTheWindowSpansTheScreensSideBySide() throws {
    let arranged = try #require(
      ScreenSharing.extend.arrangement(of: Self.named([Self.landscape, Self.portrait, Self.wide])))
    #expect(arranged.window == PixelSize(width: 800 + 600 + 1920, height: 1080))
    #expect(arranged.inputScreen == 0)
    #expect(
      arranged.views == [
        Placement(source: PixelRect(x: 0, y: 0, width: 800, height: 600).rect, destination: Self.whole(Self.landscape)),
        Placement(
          source: PixelRect(x: 800, y: 0, width: 600, height: 800).rect, destination: Self.whole(Self.portrait)),
        Placement(source: PixelRect(x: 1400, y: 0, width: 1920, height: 1080).rect, destination: Self.whole(Self.wide)),
      ])
  }

  /// The last screen alone: its canvas, the others the background, its
  /// touches the window's.
  @Test func theLastScreenAloneShowsTheWindow() throws {
    let arranged = try #require(ScreenSharing.last.arrangement(of: Self.named([Self.landscape, Self.wide])))
    #expect(arranged.window == Self.wide && arranged.inputScreen == 1)
    #expect(arranged.views == [nil, Placement(source: Self.whole(Self.wide).rect, destination: Self.whole(Self.wide))])
  }

  /// A screen named: its canvas, the others the background, its touches
  /// the window's; named without its card, a screen of another card; one
  /// not there, the first screen alone.
  @Test func theNamedScreenAloneShowsTheWindow() throws {
    let screens = [("Virtual-1", Self.landscape), ("card1-HDMI-A-1", Self.portrait), ("card1-DP-1", Self.wide)]
    for name in ["HDMI-A-1", "card1-HDMI-A-1"] {
      let arranged = try #require(ScreenSharing.only(name).arrangement(of: screens))
      #expect(arranged.window == Self.portrait && arranged.inputScreen == 1)
      #expect(
        arranged.views == [
          nil, Placement(source: Self.whole(Self.portrait).rect, destination: Self.whole(Self.portrait)), nil,
        ])
      #expect(!ScreenSharing.only(name).namesAScreenOtherThan(screens.map(\.0)))
    }
    let absent = try #require(ScreenSharing.only("HDMI-A-2").arrangement(of: screens))
    #expect(absent.window == Self.landscape && absent.inputScreen == 0)
    #expect(
      absent.views == [
        Placement(source: Self.whole(Self.landscape).rect, destination: Self.whole(Self.landscape)), nil, nil,
      ])
    #expect(ScreenSharing.only("HDMI-A-2").namesAScreenOtherThan(screens.map(\.0)))
    #expect(!ScreenSharing.last.namesAScreenOtherThan([]))
  }

  /// What a setting may say: a keyword, or a connector's name (a type and
  /// its number, on another card or not); a word that is neither (a
  /// keyword mistyped) is nothing.
  @Test func aSharingIsAKeywordOrAConnectorsName() {
    for text in ["mirror", "extend", "last", "HDMI-A-1", "eDP-1", "card1-DP-2", "Virtual-12", "DSI_x-3"] {
      #expect(ScreenSharing(text: text)?.text == text, "\(text)")
    }
    #expect(ScreenSharing(text: "DP-1") == .only("DP-1"))
    for text in [
      "mirorr", "", "HDMI-A", "HDMI-A-", "-1", "HDMI A-1", "HDMI-A-1x", String(repeating: "A", count: 31) + "-1",
    ] {
      #expect(ScreenSharing(text: text) == nil, "\(text)")
    }
  }

  /// A screen of a card other than the first is listed `cardN-NAME`; a
  /// setting may call it NAME.
  @Test func aScreenOfAnotherCardIsCalledByItsConnectorsName() {
    #expect(ScreenName.withoutCard("card1-HDMI-A-1") == "HDMI-A-1")
    #expect(ScreenName.withoutCard("card12-DP-1") == "DP-1")
    for listed in ["HDMI-A-1", "card-HDMI-A-1", "cardX-DP-1", "card1"] {
      #expect(ScreenName.withoutCard(listed) == nil)
    }
    #expect(ScreenName.is("card1-HDMI-A-1", called: "HDMI-A-1"))
    #expect(ScreenName.is("HDMI-A-1", called: "HDMI-A-1"))
    #expect(!ScreenName.is("HDMI-A-1", called: "card1-HDMI-A-1"))
    #expect(!ScreenName.is("HDMI-A-10", called: "HDMI-A-1"))
  }

  /// Where a touch on each screen's panel lands in the window: on its own
  /// part of an extended window, through the fit of a mirror, turned with
  /// the screen; nowhere on a screen that shows the background alone.
  @Test func aScreensTouchesLandOnThePartOfTheWindowItShows() throws {
    // In millionths of a pixel: what a scaled map rounds is no matter.
    func lands(_ map: AffineMap?, _ u: Double, _ v: Double) -> [Double]? {
      map.map { map in [map.apply(u, v).x, map.apply(u, v).y].map { ($0 * 1e6).rounded() / 1e6 } }
    }
    let extended = try #require(
      ScreenSharing.extend.arrangement(of: Self.named([Self.landscape, Self.portrait, Self.wide])))
    #expect(lands(extended.inputMap(ofScreen: 0, canvas: Self.landscape, rotation: .none), 0.5, 0.5) == [400, 300])
    #expect(lands(extended.inputMap(ofScreen: 1, canvas: Self.portrait, rotation: .none), 0.5, 0.5) == [1100, 400])
    #expect(lands(extended.inputMap(ofScreen: 2, canvas: Self.wide, rotation: .none), 0, 1) == [1400, 1080])
    // The second screen turned a quarter (a landscape panel showing a
    // portrait canvas): the panel's top right is the canvas's top left.
    #expect(lands(extended.inputMap(ofScreen: 1, canvas: Self.portrait, rotation: .quarter), 1, 0) == [800, 0])
    #expect(extended.inputMap(ofScreen: 3, canvas: Self.wide, rotation: .none) == nil)

    // A mirror fitted 600x450 at y 175 of a portrait screen: its middle is
    // the window's, its letterbox above the window.
    let mirrored = try #require(ScreenSharing.mirror.arrangement(of: Self.named([Self.landscape, Self.portrait])))
    let fitted = mirrored.inputMap(ofScreen: 1, canvas: Self.portrait, rotation: .none)
    #expect(lands(fitted, 0.5, 0.5) == [400, 300])
    #expect(lands(fitted, 0, 175.0 / 800) == [0, 0])
    #expect(try #require(lands(fitted, 0.5, 0.1))[1] < 0)

    let last = try #require(ScreenSharing.last.arrangement(of: Self.named([Self.landscape, Self.wide])))
    #expect(last.inputMap(ofScreen: 0, canvas: Self.landscape, rotation: .none) == nil)
    #expect(lands(last.inputMap(ofScreen: 1, canvas: Self.wide, rotation: .half), 0, 0) == [1920, 1080])
  }
}
