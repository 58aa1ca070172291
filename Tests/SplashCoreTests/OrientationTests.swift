// SPDX-License-Identifier: Apache-2.0
import SplashCore
import Testing

@Suite struct OrientationTests {
  let g = 9.81 / 256
  let matrix = MountMatrix("0, -1, 0; -1, 0, 0; 0, 0, 1")!

  func decide(_ raw: (Double, Double, Double), scale: Double, matrix: MountMatrix = .identity, previous: Orientation?)
    -> Orientation?
  {
    let v = OrientationRule.normalise(raw: raw, scale: (scale, scale, scale), matrix: matrix)
    return OrientationRule.decide(v, previous: previous)
  }

  /// Every test vector of shared/docs/orientation.md.
  @Test func referenceVectors() {
    #expect(decide((0, -256, 0), scale: g, previous: nil) == .normal)
    #expect(decide((-256, 0, 0), scale: g, previous: nil) == .rightUp)
    #expect(decide((256, 0, 0), scale: g, previous: nil) == .leftUp)
    #expect(decide((0, 256, 0), scale: g, previous: nil) == .bottomUp)
    #expect(decide((183, -256, 0), scale: g, previous: .normal) == .normal)
    #expect(decide((176, -256, 0), scale: g, previous: .normal) == .normal)
    #expect(decide((523, 13, 5), scale: 0.019163, matrix: matrix, previous: nil) == .normal)
    #expect(decide((8, 521, -67), scale: 0.019163, matrix: matrix, previous: .normal) == .rightUp)
    #expect(decide((24, 0, -21), scale: 0.306457, matrix: matrix, previous: nil) == .normal)
    #expect(decide((15, -25, -14), scale: 0.306457, matrix: matrix, previous: .normal) == .leftUp)
  }

  @Test func flatAndDiagonalKeepThePrevious() {
    #expect(decide((0, 0, 256), scale: g, previous: nil) == nil)  // lying flat, nothing known yet
    #expect(decide((0, 0, -256), scale: g, previous: .leftUp) == .leftUp)
    #expect(decide((200, 200, 0), scale: g, previous: .bottomUp) == .bottomUp)
  }

  @Test func anglesAreTheClockwiseTurns() {
    #expect(Orientation.allCases.map(\.rotation.rawValue) == [0, 90, 180, 270])
  }

  @Test func mountMatrices() {
    #expect(MountMatrix("1, 0, 0; 0, 1, 0; 0, 0, 1") == .identity)
    #expect(MountMatrix(" 0,1,0 ;1 , 0,0; 0,0,-1 ") != nil)
    #expect(MountMatrix("1, 0, 0; 0, 0, 0; 0, 0, 1") == nil)  // an all-zero row
    #expect(MountMatrix("1, 0; 0, 1") == nil)
    #expect(MountMatrix("1, 0, x; 0, 1, 0; 0, 0, 1") == nil)
    // Entries past ±1000 are refused (1e15 made --check die printing it back).
    #expect(MountMatrix("1e15, 0, 0; 0, 1, 0; 0, 0, 1") == nil)
    #expect(MountMatrix("1000, 0, 0; 0, -1000, 0; 0, 0, 0.001") != nil)
    let (x, y, z) = matrix.apply((1, 2, 3))
    #expect(x == -2 && y == -1 && z == 3)
  }

  @Test func numbersTooLargeForIntegersAreStillPrinted() {
    #expect(formatFixed(1e20, decimals: 6) == "1e+20")
    #expect(Double(formatNumber(1e15)) == 1e15)
    #expect(formatNumber(-9.5e12) == "-9500000000000")
    #expect(formatFixed(.infinity, decimals: 1) == "inf")
  }

  @Test func kernelCommandLine() {
    #expect(kernelCommandLineRotation("root=/dev/sda1 fbcon=rotate:1 quiet") == .quarter)
    #expect(kernelCommandLineRotation("fbcon=font:VGA8x16,rotate:3") == .threeQuarters)
    #expect(kernelCommandLineRotation("video=DSI-1:800x1280@60,rotate=270 fbcon=rotate:1") == .threeQuarters)
    #expect(kernelCommandLineRotation("video=eDP-1:panel_orientation=left_side_up") == .threeQuarters)
    #expect(kernelCommandLineRotation("video=eDP-1:panel_orientation=upside_down") == .half)
    #expect(kernelCommandLineRotation("fbcon=rotate:7 video=eDP-1:1920x1080") == nil)
    #expect(kernelCommandLineRotation("quiet splash") == nil)
  }
}
