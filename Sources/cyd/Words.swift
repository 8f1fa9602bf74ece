import ArgumentParser
import StoryCheck
import StoryTranslation
import TerminalUI

// The library's option enums are the command line's values as they are: no mirror enum to keep
// in step, no force-unwrapped bridge between them.
extension ReportFormat: ExpressibleByArgument {}
extension Terminal.ColorChoice: ExpressibleByArgument {}
extension PictureChoice: ExpressibleByArgument {}
extension TranslationFile.Format: ExpressibleByArgument {}
