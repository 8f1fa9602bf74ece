/// What a reader can do in a story, whatever they read it with: one closed set, so an action
/// added here must be answered by every interface (the terminal's loop, the served reader), each
/// in an exhaustive switch, even if only to say it does not offer it.
public enum ReaderAction: String, Sendable, CaseIterable {
    /// Take a choice of the chapter shown.
    case choose
    case back, restart
    /// Bookmark the chapter shown; `unmark` removes a bookmark; `jump` goes to one.
    case bookmark, unmark, jump
    /// Write a note on the chapter shown; `unnote` removes one.
    case note, unnote
    /// Keep the reader's first name, for [[name]].
    case name
    /// The path taken so far.
    case history
    /// The chapter's picture, on its own.
    case picture
    /// What can be done.
    case help
    /// Stop reading; the place is kept.
    case quit
}
