#if canImport(SwiftUI) && canImport(UIKit) && canImport(UniformTypeIdentifiers)
  // BEGIN EMBEDDING.md recovery-file
  import LegacyMigration
  import SwiftUI
  import UniformTypeIdentifiers

  extension UTType {
    static let dittoRecovery = UTType(exportedAs: "io.kern.ditto.recovery")
  }

  /// Adds "Recover from File…" and the handling of a `.dittorecovery` file opened from Files or
  /// AirDrop to the app's root view. No Pro gate: this is recovery.
  struct RecoveryFileSupport: ViewModifier {
    let migrator: LegacyDataMigrator
    @State private var picking = false
    @State private var pending: URL?
    @State private var confirmation = ""
    @State private var message: String?

    func body(content: Content) -> some View {
      content
        .onOpenURL { url in Task { await ask(url) } }  // AirDrop, Files, "Open in Ditto"
        .toolbar { Button("Recover from File…") { picking = true } }
        .fileImporter(isPresented: $picking, allowedContentTypes: [.dittoRecovery]) { result in
          if case .success(let url) = result { Task { await ask(url) } }
        }
        .alert(confirmation, isPresented: .constant(pending != nil)) {
          Button("Import") {
            if let url = pending { Task { await recover(url) } }
            pending = nil
          }
          Button("Cancel", role: .cancel) { pending = nil }
        }
        .alert(message ?? "", isPresented: .constant(message != nil)) {
          Button("OK") { message = nil }
        }
    }

    /// Dry run first: the count the user confirms; nothing written, no telemetry line.
    private func ask(_ url: URL) async {
      let scoped = url.startAccessingSecurityScopedResource()
      let preview = await migrator.recoverNow(from: url, dryRun: true)
      if scoped { url.stopAccessingSecurityScopedResource() }
      if preview.outcome == .foundUnreadable {
        message = RecoveryAlert(preview).text
      } else {
        confirmation = preview.previewMessage
        pending = url
      }
    }

    private func recover(_ url: URL) async {
      let scoped = url.startAccessingSecurityScopedResource()
      let report = await migrator.recoverNow(from: url)
      if scoped { url.stopAccessingSecurityScopedResource() }
      message = RecoveryAlert(report).text
    }
  }
// END EMBEDDING.md recovery-file
#endif
