import Testing

@testable import StoryReader

@Suite("[[name]]")
struct PlaceholderTests {
    @Test("every exact [[name]] is replaced, anywhere, and nothing else is touched")
    func replaced() {
        #expect("[[name]]".replacingPlaceholder(with: "Ana") == "Ana")
        #expect("Hi [[name]], [[name]]!".replacingPlaceholder(with: "Bo") == "Hi Bo, Bo!")
        #expect("[[nam]] [[Name]] [[ name ]] [[name".replacingPlaceholder(with: "Bo") == "[[nam]] [[Name]] [[ name ]] [[name")
        #expect("[[[name]]]".replacingPlaceholder(with: "Zoë") == "[Zoë]")
        #expect("café 🦊 [[name]]".replacingPlaceholder(with: "Ünal") == "café 🦊 Ünal")
        #expect("".replacingPlaceholder(with: "x") == "")
    }
}
