import Foundation
import PushgateHTTP

/// What the console serves from files: its page, put together from this target's
/// `Resources/console/console.html`, in which `{{console.css}}` and `{{console.js}}` are the files beside
/// it and every other `{{FILE}}` is the playground's part of that name, and the playground's resources
/// (its examples and `/api/translate`).
///
/// SwiftPM copies `Resources/console/` into `pushgate_PushgateConsole.resources` beside the built binary;
/// an installation copies that folder beside `pushgate` too, like the playground's (`deploy/Dockerfile`).
public struct ConsoleResources: Sendable {
    /// The console's page, as sent for `GET /`.
    public let page: [UInt8]
    /// The playground's page and examples, which the console's editor uses.
    public let playground: PlaygroundResources

    /// The folder SwiftPM copies this target's resources into, beside the binary.
    static let bundleName = "pushgate_PushgateConsole.resources"

    /// Reads the console's page and the playground's resources. Blocking file reads: call it off the
    /// cooperative pool.
    /// - Throws: ``PlaygroundResourceError`` naming a file or a bundle that is missing.
    public static func load() throws(PlaygroundResourceError) -> ConsoleResources {
        let bundle = try PlaygroundResources.resourceBundle(named: bundleName)
        let template = try PlaygroundResources.read("console.html", in: "console", of: bundle)
        let page = try PlaygroundResources.assemble(template) { name throws(PlaygroundResourceError) in
            guard bundle.url(forResource: name, withExtension: nil, subdirectory: "console") != nil else { return nil }
            return try PlaygroundResources.read(name, in: "console", of: bundle)
        }
        return ConsoleResources(page: page, playground: try PlaygroundResources.load())
    }
}
