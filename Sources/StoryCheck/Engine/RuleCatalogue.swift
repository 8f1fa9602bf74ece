import StoryFormat

/// Every rule, in code order. Adding a rule is adding its file and one line here.
/// Codes of checks that other modules act on by name (a repair, the language server).
extension DiagnosticCode {
    public static let missingChoiceTarget: Self = MissingChoiceTarget.description.code
    public static let httpMediaLink: Self = HTTPMediaLink.description.code
}

public enum RuleCatalogue {
    public static let rules: [any Rule.Type] = [
        InvalidJSON.self, TrailingComma.self, Comment.self, InvalidUTF8.self, NestingTooDeep.self,
        DuplicateKey.self, UnescapedControlCharacter.self, EmptyFile.self, FileTooLarge.self,
        MissingKey.self, WrongType.self, EmptyValue.self, UnknownKey.self, NoChapters.self, TwineValue.self,
        DuplicateChapterID.self, MissingChoiceTarget.self, SelfChoice.self, DuplicateChoiceTarget.self, ControlCharacterInID.self,
        NoFirstChapter.self, SeveralFirstChapters.self,
        UnreachableChapter.self, NoWayOut.self, UnmarkedEnding.self, EndingWithChoices.self,
        MediaPathEscapes.self, HTTPMediaLink.self, UnsupportedMediaScheme.self, MissingMediaFile.self,
        NotAPicture.self, LargePicture.self, LinkLeavesFolder.self, PictureTooLarge.self, UnreadablePicture.self, PictureLocation.self, PictureWithoutAlt.self,
        UnknownPlaceholder.self, EmptyChapterText.self, ControlCharacter.self, TerminalEscapeSequence.self,
        BidiControl.self,
        MissingReadme.self, MissingDiscoveryTag.self,
        DuplicateAuthor.self, InvalidGitHubUser.self, InvalidRepositoryURL.self,
        TweeNoPassages.self, TweeTextOutsidePassages.self, TweeCodePassage.self, TweeMacro.self, TweeLinkSetter.self,
        TweeDuplicatePassage.self, TweeStartMissing.self, TweeUnreadableData.self, TwineMoreStories.self, TwineArchiveCutShort.self,
        TranslationUnreadable.self, TranslationUnknownID.self, TranslationPlaceholder.self, TranslationStale.self,
        TranslationUntranslated.self, TranslationLanguageCode.self, TranslationDuplicate.self, TranslationNotListed.self, TranslationInlineMarkup.self,
    ]

    public static var descriptions: [RuleDescription] { rules.map { $0.description } }

    private static let byCode: [DiagnosticCode: RuleDescription] = Dictionary(
        uniqueKeysWithValues: rules.map { ($0.description.code, $0.description) })

    public static func description(of code: DiagnosticCode) -> RuleDescription? { byCode[code] }

    /// Looks a rule up by code (any case) or name.
    public static func find(_ codeOrName: String) -> RuleDescription? {
        byCode[DiagnosticCode(rawValue: codeOrName.uppercased())] ?? descriptions.first { $0.name == codeOrName.lowercased() }
    }

    /// The rules with a check of their own for a kind of file, in code order: each says which
    /// kind it checks, so none is left out by where it is filed.
    static func checking(_ kind: DocumentKind) -> [any CheckedRule.Type] {
        rules.compactMap { $0.checkedRule }.filter { $0.checks == kind }
    }
}
