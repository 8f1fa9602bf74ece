// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ChooseYourDestiny",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "StoryFormat", targets: ["StoryFormat"]),
        .library(name: "StoryCheck", targets: ["StoryCheck"]),
        .executable(name: "cyd", targets: ["cyd"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // bytes -> JSON tree with source positions -> story model; no dependencies
        .target(name: "StoryFormat"),
        // rules over the tree and the chapter graph -> diagnostics -> text/json/github/sarif
        .target(name: "StoryCheck", dependencies: ["StoryFormat"]),
        // the command line: the only module that knows about terminals and exit codes
        .executableTarget(
            name: "cyd",
            dependencies: [
                "StoryFormat", "StoryCheck",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "StoryFormatTests", dependencies: ["StoryFormat"]),
        .testTarget(name: "StoryCheckTests", dependencies: ["StoryCheck", "StoryFormat"]),
        .testTarget(name: "CydTests", dependencies: ["cyd", "StoryFormat"]),
    ],
    swiftLanguageModes: [.v6]
)
