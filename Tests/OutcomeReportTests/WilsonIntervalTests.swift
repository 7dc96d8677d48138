import Testing

@testable import OutcomeReport

/// Wilson score bounds and the normal quantile, against published values.
struct WilsonIntervalTests {
  static let z95 = 1.959963984540054

  @Test(arguments: [
    // count, sample, lower, upper (95%)
    (0, 10, 0.0, 0.277533),
    (5, 10, 0.236593, 0.763407),
    (10, 10, 0.722467, 1.0),
    (58, 100, 0.482065, 0.672016),
    (7, 12, 0.319511, 0.806740),
    (1, 1, 0.206549, 1.0),
  ])
  func boundsMatchKnownValues(count: Int, sample: Int, lower: Double, upper: Double) {
    let interval = WilsonInterval(count: count, of: sample, z: Self.z95)
    #expect(abs(interval.lower - lower) < 1e-6)
    #expect(abs(interval.upper - upper) < 1e-6)
  }

  @Test func edgesAreExact() {
    #expect(WilsonInterval(count: 0, of: 7, z: Self.z95).lower == 0)
    #expect(WilsonInterval(count: 7, of: 7, z: Self.z95).upper == 1)
    #expect(WilsonInterval(count: 0, of: 0, z: Self.z95) == WilsonInterval(lower: 0, upper: 1))
  }

  @Test func intervalNarrowsAsTheSampleGrows() {
    var previous = 1.0
    for sample in [10, 20, 40, 80, 160] {
      let width = WilsonInterval(count: sample / 2, of: sample, z: Self.z95).width
      #expect(width < previous)
      previous = width
    }
  }

  @Test(arguments: [
    (0.95, 1.959963984540054), (0.99, 2.5758293035489004), (0.9, 1.6448536269514722),
    (0.5, 0.6744897501960817), (0.999, 3.2905267314919255),
  ])
  func zScoreOfConfidence(confidence: Double, expected: Double) {
    #expect(abs(WilsonInterval.zScore(confidence: confidence) - expected) < 1e-12)
  }

  @Test func inverseNormalIsSymmetricAndZeroAtTheMedian() {
    #expect(abs(WilsonInterval.inverseNormal(0.5)) < 1e-15)
    for p in [0.001, 0.01, 0.02, 0.2, 0.4] {
      #expect(abs(WilsonInterval.inverseNormal(p) + WilsonInterval.inverseNormal(1 - p)) < 1e-12)
    }
  }
}
