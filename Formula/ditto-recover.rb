# Homebrew formula for ditto-recover: installs the universal macOS binary that the release workflow
# (.github/workflows/release.yml) attaches to each version tag. The workflow attaches this file with
# `url` and `sha256` filled in for that release; the values here are the template it fills.
#
#   brew install ./ditto-recover.rb      (the copy attached to a release)
#
# Neither the workflow nor this formula has run in this repository's own CI (Linux only): CI checks
# the syntax with `ruby -c`.
class DittoRecover < Formula
  desc "Find and recover Ditto 2.x snippets from a device copy or a computer backup"
  homepage "https://github.com/OWNER/REPOSITORY"
  url "https://github.com/OWNER/REPOSITORY/releases/download/v3.0.2/ditto-recover-3.0.2-macos-universal.zip"
  version "3.0.2"
  sha256 "0000000000000000000000000000000000000000000000000000000000000000"

  depends_on macos: :sonoma

  def install
    bin.install "ditto-recover"
    doc.install "README.md", "RECOVERING_LOST_DITTOS.md"
    generate_completions_from_executable(bin/"ditto-recover", "completion")
  end

  test do
    assert_equal version.to_s, shell_output("#{bin}/ditto-recover --version").strip
    (testpath/"device").mkpath
    output = shell_output("#{bin}/ditto-recover status --container #{testpath}/device")
    assert_match "recoverable: nothing (no legacy file in any probed place)", output
  end
end
