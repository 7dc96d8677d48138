import Foundation

/// A two-sided score interval for a share: where the cohort's true share plausibly lies.
///
/// For `k` of `n` at confidence `c`, with `z` the `(1 + c) / 2` quantile of the standard normal
/// distribution, `p = k / n`:
///
///     centre = (p + z²/2n) / (1 + z²/n)
///     half   = z · √(p(1 − p)/n + z²/4n²) / (1 + z²/n)
///
/// The interval is `[centre − half, centre + half]`, clamped to 0…1, with exactly 0 below when
/// `k == 0` and exactly 1 above when `k == n`. Nothing weighed (`n == 0`) gives `[0, 1]`. Unlike
/// `p ± z·√(p(1 − p)/n)`, it stays inside 0…1 and is not zero-width at 0 of n or n of n.
package struct WilsonInterval: Equatable, Sendable {
  /// The lower bound, 0…1.
  package let lower: Double
  /// The upper bound, 0…1.
  package let upper: Double

  /// The interval for `count` of `sample` at `z` (see ``zScore(confidence:)``).
  package init(count: Int, of sample: Int, z: Double) {
    guard sample > 0 else {
      self.lower = 0
      self.upper = 1
      return
    }
    let k = Double(min(max(count, 0), sample))
    let n = Double(sample)
    let p = k / n
    let z2 = z * z
    let denominator = 1 + z2 / n
    let centre = (p + z2 / (2 * n)) / denominator
    let half = z * (p * (1 - p) / n + z2 / (4 * n * n)).squareRoot() / denominator
    self.lower = count <= 0 ? 0 : min(max(centre - half, 0), 1)
    self.upper = count >= sample ? 1 : min(max(centre + half, 0), 1)
  }

  /// An interval with the given bounds (for tests and callers with their own numbers).
  package init(lower: Double, upper: Double) {
    self.lower = lower
    self.upper = upper
  }

  /// `upper − lower`.
  package var width: Double { upper - lower }

  /// The `z` of a two-sided interval at `confidence` (0.95 gives 1.959963984540054).
  package static func zScore(confidence: Double) -> Double {
    inverseNormal((1 + confidence) / 2)
  }

  /// The standard normal quantile: Acklam's rational approximation (relative error below
  /// 1.2 × 10⁻⁹), then one Halley step on `erfc`, which brings it to double precision.
  static func inverseNormal(_ probability: Double) -> Double {
    guard probability > 0, probability < 1 else {
      return probability <= 0 ? -.infinity : .infinity
    }
    let a = [
      -3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
      1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00,
    ]
    let b = [
      -5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
      6.680131188771972e+01, -1.328068155288572e+01,
    ]
    let c = [
      -7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
      -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00,
    ]
    let d = [
      7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
      3.754408661907416e+00,
    ]
    let low = 0.02425
    var x: Double
    if probability < low || probability > 1 - low {
      let tail = probability < low ? probability : 1 - probability
      let q = (-2 * log(tail)).squareRoot()
      let numerator = ((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]
      let denominator = (((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1
      x = numerator / denominator
      if probability > 1 - low { x = -x }
    } else {
      let q = probability - 0.5
      let r = q * q
      let numerator = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q
      let denominator = ((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1
      x = numerator / denominator
    }
    let error = 0.5 * erfc(-x / 2.0.squareRoot()) - probability
    let u = error * (2 * Double.pi).squareRoot() * exp(x * x / 2)
    x -= u / (1 + x * u / 2)
    return x
  }
}
