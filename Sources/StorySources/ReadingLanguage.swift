import StoryStore
import StoryTranslation

/// The language a stored story is read in: the one asked for, else the environment's (LC_ALL,
/// LC_MESSAGES, LANG), when the story has it (`fr-CA` reads `fr`).
public enum ReadingLanguage: Equatable, Sendable {
    /// The story as written.
    case original
    case translation(StoryLanguage)
    /// `requested` was asked for by name and the story lacks it; it has `available`.
    case missing(requested: String, available: [String])

    /// `asked`: a BCP 47 tag, `original`, or nil for the environment's language, which falls back
    /// to the original quietly when the story lacks it.
    public static func choose(_ asked: String?, environment: [String: String], of record: StoryRecord, in library: StoryLibrary) throws -> ReadingLanguage {
        if asked == "original" { return .original }
        guard let requested = asked.map(LanguageTag.normalise) ?? LanguageTag.fromEnvironment(environment) else { return .original }
        let languages = try library.languages(of: record)
        if let match = LanguageTag.best(for: requested, among: languages.map(\.language)), let language = languages.first(where: { $0.language == match }) {
            return .translation(language)
        }
        return asked == nil ? .original : .missing(requested: requested, available: languages.map(\.language))
    }
}
