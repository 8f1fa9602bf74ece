// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "ChooseYourDestiny",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "StoryFormat", targets: ["StoryFormat"]),
        .library(name: "StoryCheck", targets: ["StoryCheck"]),
        .library(name: "StoryStore", targets: ["StoryStore"]),
        .library(name: "StoryReader", targets: ["StoryReader"]),
        .library(name: "Transport", targets: ["Transport"]),
        .library(name: "StorySources", targets: ["StorySources"]),
        .library(name: "StoryAnalysis", targets: ["StoryAnalysis"]),
        .library(name: "StorySync", targets: ["StorySync"]),
        .library(name: "StoryLanguageServer", targets: ["StoryLanguageServer"]),
        .library(name: "StoryWeb", targets: ["StoryWeb"]),
        .library(name: "StoryInterchange", targets: ["StoryInterchange"]),
        .library(name: "StoryTranslation", targets: ["StoryTranslation"]),
        .library(name: "StoryValidation", targets: ["StoryValidation"]),
        .library(name: "StoryDiff", targets: ["StoryDiff"]),
        .library(name: "InterfaceWords", targets: ["InterfaceWords"]),
        .executable(name: "cyd", targets: ["cyd"]),
    ],
    traits: [
        // `cyd serve`, the browser reader served from the library, with Hummingbird and SwiftNIO.
        // Off by default so that reading in the terminal never waits for a web server to build:
        // `swift build -c release --traits BrowserReader` (the test command enables it).
        .trait(name: "BrowserReader", description: "cyd serve: the browser reader, served from the library (Hummingbird)"),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        // Hummingbird's own dependencies, named for the parts the server uses directly (the request
        // deadline handler, a silent logger): they add nothing to the build.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        // a string's bytes scanned sixteen at a time (SSE2), for the parser and the text rules
        .target(name: "CByteScan"),
        // bytes -> JSON tree with source positions -> story model; no dependencies but the scans
        .target(name: "StoryFormat", dependencies: ["CByteScan"]),
        // reading local files safely: regular files only, nothing outside a story folder
        .target(name: "LocalFiles"),
        // rules over the tree and the chapter graph -> diagnostics -> text/json/github/sarif
        .target(name: "StoryCheck", dependencies: ["StoryFormat", "LocalFiles"]),
        // libcurl, loaded on first use, with its variadic functions wrapped so Swift can call them
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("dl")]),
        // OpenSSL's libcrypto (SHA-256, Ed25519), loaded on first use: signed catalogues cost the
        // build nothing
        .target(name: "CCrypto", linkerSettings: [.linkedLibrary("dl")]),
        // libedit's line editing for the reader's prompt, loaded on first use
        .target(name: "CLineEditor", linkerSettings: [.linkedLibrary("dl")]),
        // pictures: libpng, libjpeg-turbo, giflib, libwebp and libchafa, each loaded on first use
        .target(name: "CPictures", linkerSettings: [.linkedLibrary("dl")]),
        // decoding a picture and drawing it in a terminal (symbols, sixel, kitty, iTerm2)
        .target(name: "TerminalPictures", dependencies: ["CPictures"]),
        // libgit2's headers, and the library loaded on first use (a reader never maps it)
        .target(name: "CGit2", linkerSettings: [.linkedLibrary("dl")]),
        // a socket stream for libgit2 whose reads and writes time out: the watchdog for stalled servers
        .target(name: "CGit2Stream", dependencies: ["CGit2"]),
        // the only module that touches C: HTTP through libcurl, git through libgit2, digests and
        // signatures through libcrypto
        .target(name: "Transport", dependencies: ["CCurl", "CGit2", "CGit2Stream", "CCrypto"]),
        // exact answers about a story: playthroughs counted, endings, dominators, statistics
        .target(name: "StoryAnalysis", dependencies: ["StoryFormat", "StoryCheck"]),
        // the SQLite library of stories, chapters, pictures, profiles and progress; stores Story values
        .target(
            name: "StoryStore",
            dependencies: [
                "StoryFormat", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]),
        // a reading session: current chapter, choose, back, bookmarks, pictures; no terminal, no network
        .target(name: "StoryReader", dependencies: ["StoryStore", "StoryFormat"]),
        // where stories come from: one resolver over folders, files, git repositories and https
        // story.json; reading -> checking -> storing composed; pictures for the reader
        .target(
            name: "StorySources",
            dependencies: ["StoryFormat", "StoryCheck", "StoryStore", "StoryReader", "StoryTranslation", "StoryValidation", "Transport", "LocalFiles"]),
        // the catalogue: authors.json -> repositories -> checks; the published index
        .target(name: "StorySync", dependencies: ["StorySources", "StoryStore", "StoryCheck", "StoryFormat", "StoryTranslation", "StoryValidation", "Transport", "LocalFiles"]),
        // `cyd lsp`: the rules, navigation and repairs for editors, over JSON-RPC on stdio
        .target(name: "StoryLanguageServer", dependencies: ["StoryFormat", "StoryCheck", "StoryAnalysis", "StoryTranslation", "StoryValidation", "LocalFiles"]),
        // cyd's words for readers (terminal, browser, EPUB) in their languages: the phrases, and
        // their translations (translations/*.po, kept in the program) chosen per phrase
        .target(name: "InterfaceWords", dependencies: ["StoryTranslation"], exclude: ["translations"]),
        // the browser reader: pages (story text escaped in one place), the static site with its
        // script and service worker
        .target(name: "StoryWeb", dependencies: ["StoryFormat", "LocalFiles", "InterfaceWords"]),
        // stories in and out of other tools' formats: Twee 3 (Twine), exactly both ways
        .target(name: "StoryInterchange", dependencies: ["StoryFormat", "StoryCheck", "StoryWeb", "InterfaceWords"]),
        // translations: stable ids for every string, PO and XLIFF 2.1 in and out, merging, status,
        // checks, and a story in another language
        .target(name: "StoryTranslation", dependencies: ["StoryFormat", "StoryCheck", "LocalFiles"]),
        // the one way to validate anything (a folder, story.json, authors.json, Twee, a
        // translation; a path or bytes): used by the CLI, the language server, the importer and the sync
        .target(name: "StoryValidation", dependencies: ["StoryFormat", "StoryCheck", "StoryInterchange", "StoryTranslation", "LocalFiles"]),
        // what a change does to a story (`cyd diff`): two versions from folders, files or git
        // revisions (libgit2, no checkout), compared as chapters, choices, endings and findings
        .target(name: "StoryDiff", dependencies: ["StoryFormat", "StoryCheck", "StoryAnalysis", "StoryTranslation", "StoryValidation", "Transport", "LocalFiles"]),
        // `cyd serve`: the browser reader over HTTP (Hummingbird): pages from the library, places
        // shared with the terminal reader, LAN access by token, anti-forgery, bounded requests.
        // Its sources and its Hummingbird and NIO dependencies are the trait's alone: a build of
        // every target without it (pre-commit's `swift build -c release`) compiles neither.
        .target(
            name: "StoryServer",
            dependencies: [
                "StoryWeb", "StoryReader", "StoryStore", "StorySources", "StoryFormat", "StoryTranslation", "LocalFiles", "Transport",
                "StoryCheck", "StoryAnalysis", "StoryValidation", "StoryDiff", "InterfaceWords",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["BrowserReader"])), .product(name: "HummingbirdCore", package: "hummingbird", condition: .when(traits: ["BrowserReader"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["BrowserReader"])), .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["BrowserReader"])),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras", condition: .when(traits: ["BrowserReader"])), .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras", condition: .when(traits: ["BrowserReader"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["BrowserReader"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["BrowserReader"])), .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["BrowserReader"])),
            ]),
        // the terminal: streams, wrapping by display width, the reader's screen, command table and
        // loop, the line editor, which way pictures are drawn, the sync display, files the user names
        .target(
            name: "TerminalUI",
            dependencies: [
                "StoryFormat", "StoryCheck", "StoryAnalysis", "StoryStore", "StoryReader", "StorySources", "StorySync", "LocalFiles", "CLineEditor", "TerminalPictures",
                "InterfaceWords",
            ]),
        // the command line's words (ripgrep's printer): every line, sentence and JSON answer cyd
        // prints, and the files `cyd init` writes, made from the libraries' typed answers; it may
        // name cyd's flags and commands, and prints nothing itself (cyd writes what it makes)
        .target(
            name: "CydWords",
            dependencies: [
                "StoryFormat", "StoryCheck", "StoryAnalysis", "StoryStore", "StorySources", "StorySync", "StoryTranslation", "StoryValidation", "StoryWeb", "StoryInterchange",
                "StoryDiff", "LocalFiles", "TerminalUI", "InterfaceWords",
            ]),
        // the command line: the commands and their flags, calls into the libraries, exit codes
        .executableTarget(
            name: "cyd",
            dependencies: [
                "CydWords",
                "StoryFormat", "StoryCheck", "StoryAnalysis", "StoryStore", "StoryReader", "StorySources", "StorySync", "LocalFiles", "Transport",
                "StoryLanguageServer", "StoryWeb", "StoryInterchange", "StoryTranslation", "StoryValidation", "StoryDiff", "TerminalUI", "TerminalPictures",
                "InterfaceWords",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .target(name: "StoryServer", condition: .when(traits: ["BrowserReader"])),
            ]
        ),
        .testTarget(name: "StoryFormatTests", dependencies: ["StoryFormat", "TestSupport", "CHeapProbe"]),
        .target(name: "CHeapProbe", path: "Tests/CHeapProbe"),
        .testTarget(name: "LocalFilesTests", dependencies: ["LocalFiles", "TestSupport"]),
        .testTarget(name: "StoryCheckTests", dependencies: ["StoryCheck", "StoryFormat", "TestSupport"]),
        .testTarget(name: "StoryLanguageServerTests", dependencies: ["StoryLanguageServer", "StoryFormat"]),
        .testTarget(name: "StoryAnalysisTests", dependencies: ["StoryAnalysis", "StoryCheck", "StoryFormat"]),
        .testTarget(name: "CydWordsTests", dependencies: ["CydWords", "StoryFormat", "StoryCheck", "StoryAnalysis", "StoryStore", "StorySources", "StorySync", "StoryTranslation", "StoryDiff"]),
        .testTarget(name: "StoryValidationTests", dependencies: ["StoryValidation", "StoryCheck", "StoryFormat", "TestSupport"]),
        .testTarget(name: "StoryDiffTests", dependencies: ["StoryDiff", "StoryFormat", "StoryAnalysis", "TestSupport"]),
        // fuzz targets that need the package's dependencies: built with libFuzzer by
        // scripts/fuzz-served.sh, and as a replay driver of the kept inputs by the test suite
        .executableTarget(
            name: "CydFuzz",
            dependencies: [
                "StorySync", "StorySources", "StoryStore", "StoryFormat", "StoryInterchange", "StoryTranslation",
                .target(name: "StoryServer", condition: .when(traits: ["BrowserReader"])),
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["BrowserReader"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["BrowserReader"])),
                .product(name: "NIOEmbedded", package: "swift-nio", condition: .when(traits: ["BrowserReader"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["BrowserReader"])),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras", condition: .when(traits: ["BrowserReader"])),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras", condition: .when(traits: ["BrowserReader"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["BrowserReader"])),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["BrowserReader"])),
            ],
            path: "Tests/Fuzz/CydFuzz"),
        // servers and fixtures shared by the tests
        .target(name: "TestSupport", dependencies: ["StoryFormat"], path: "Tests/TestSupport"),
        // a library in a temporary folder, for the store's and the reader's tests
        .target(name: "LibraryTestSupport", dependencies: ["StorySources", "StoryStore", "TestSupport"], path: "Tests/LibraryTestSupport"),
        .testTarget(name: "TransportTests", dependencies: ["Transport", "TestSupport"]),
        .testTarget(name: "StorySyncTests", dependencies: ["StorySync", "StorySources", "StoryStore", "Transport", "TestSupport"]),
        .testTarget(
            name: "StoryStoreTests",
            dependencies: [
                "StoryStore", "StorySources", "StoryReader", "StoryFormat", "StoryCheck", "Transport", "TestSupport", "LibraryTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),
        .testTarget(
            name: "StoryReaderTests", dependencies: ["StoryReader", "StorySources", "StoryStore", "StoryFormat", "Transport", "TestSupport", "LibraryTestSupport"]),
        .testTarget(name: "StorySourcesTests", dependencies: ["StorySources", "StoryReader", "StoryStore", "StoryCheck", "Transport", "TestSupport", "LibraryTestSupport"]),
        .testTarget(name: "TerminalUITests", dependencies: ["TerminalUI", "StoryFormat", "TerminalPictures", "StoryReader", "StoryStore", "TestSupport", "LibraryTestSupport"]),
        .testTarget(name: "CydTests", dependencies: ["cyd", "CydFuzz", "StoryFormat", "StoryStore", "StoryTranslation", "StoryInterchange", "TestSupport", "TerminalPictures", "TerminalUI"]),
        .testTarget(name: "TerminalPicturesTests", dependencies: ["TerminalPictures"]),
        .testTarget(name: "StoryInterchangeTests", dependencies: ["StoryInterchange", "StoryCheck", "StoryFormat", "TestSupport"]),
        .testTarget(name: "StoryTranslationTests", dependencies: ["StoryTranslation", "StoryCheck", "StoryFormat", "TestSupport"]),
        .testTarget(name: "StoryWebTests", dependencies: ["StoryWeb", "StoryFormat", "TestSupport"]),
        .testTarget(name: "InterfaceWordsTests", dependencies: ["InterfaceWords", "StoryTranslation", "TestSupport"]),
        .testTarget(
            name: "StoryServerTests",
            dependencies: [
                "StoryServer", "StoryStore", "StoryFormat", "TestSupport", "LibraryTestSupport",
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["BrowserReader"])),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
