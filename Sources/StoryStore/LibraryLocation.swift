#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StoryFormat

/// Where the library lives: data under $XDG_DATA_HOME/chooseyourdestiny, caches under
/// $XDG_CACHE_HOME/chooseyourdestiny. One environment variable, CYD_HOME (or the CLI's
/// --library), puts both in one folder instead, for tests and portable set-ups.
public struct LibraryLocation: Sendable, Hashable {
    public var dataDirectory: String
    public var cacheDirectory: String

    public var databasePath: String { dataDirectory + "/library.sqlite" }

    public init(dataDirectory: String, cacheDirectory: String) {
        self.dataDirectory = dataDirectory
        self.cacheDirectory = cacheDirectory
    }

    /// A single folder holding both.
    public init(home: String) {
        self.init(dataDirectory: home, cacheDirectory: home + "/cache")
    }

    /// The library's folders: the override (--library), else CYD_HOME, else the XDG folders
    /// under HOME. Always absolute: a relative override is taken from the current folder once,
    /// here; without an absolute HOME (unset, empty or relative, as under some service managers)
    /// there is no sensible place, and that is an error naming the way out, rather than a
    /// library that silently lands in whatever folder cyd was started from.
    public static func resolve(
        override: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(LibraryError) -> LibraryLocation {
        func absolute(_ path: String) -> String {
            path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        }
        if let override, !override.isEmpty { return LibraryLocation(home: absolute(override)) }
        if let home = environment["CYD_HOME"], !home.isEmpty { return LibraryLocation(home: absolute(home)) }
        let userHome = environment["HOME"]
        func xdg(_ name: String, _ fallback: String) throws(LibraryError) -> String {
            // The spec says relative values are invalid and must be ignored.
            if let value = environment[name], value.hasPrefix("/") { return value }
            guard let userHome, userHome.hasPrefix("/") else { throw .noHome(home: userHome) }
            return userHome + "/" + fallback
        }
        return LibraryLocation(
            dataDirectory: try xdg("XDG_DATA_HOME", ".local/share") + "/chooseyourdestiny",
            cacheDirectory: try xdg("XDG_CACHE_HOME", ".cache") + "/chooseyourdestiny")
    }
}
