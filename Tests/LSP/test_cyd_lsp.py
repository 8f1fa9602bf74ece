"""`cyd lsp` driven end to end by a real LSP client (pytest-lsp over stdio).

Run by the Swift suite (LanguageServerEndToEndTests) with CYD_BINARY set; by hand:
    CYD_BINARY=.build/debug/cyd python3 -m pytest Tests/LSP
"""
import asyncio
import json
import os
import pathlib
import statistics
import subprocess
import time

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features
from pygls.protocol import default_converter

ROOT = pathlib.Path(__file__).resolve().parents[2]
CYD = os.environ.get("CYD_BINARY", str(ROOT / ".build" / "debug" / "cyd"))

# Accents and an emoji outside the Basic Multilingual Plane (two UTF-16 units) sit before the
# places the tests point at, so every position proves the UTF-16 conversion.
STORY = """{
  "story": {
    "id": "lsp-test",
    "name": "Café 🐱",
    "rating": "G",
    "summary": "A story for the language server's tests",
    "chapters": [
      {
        "id": "start",
        "name": "Début 🐱",
        "is_first_chapter": true,
        "text": "Hello 🐱 there.\\nSecond line.",
        "choices": [
          {"text": "Go 🐱 on", "chapter_id": "end"},
          {"text": "🐱🐱 é down", "chapter_id": "celar"}
        ]
      },
      {
        "id": "end",
        "name": "The End",
        "is_ending": true,
        "text": "Fin, the first line.\\nAnd more.",
        "choices": []
      }
    ]
  }
}
"""


def position(text, needle, nth=0, delta=0):
    """The LSP position (UTF-16 columns) of the nth occurrence of needle, plus delta characters."""
    index = -1
    for _ in range(nth + 1):
        index = text.index(needle, index + 1)
    index += delta
    line = text.count("\n", 0, index)
    line_start = text.rfind("\n", 0, index) + 1
    character = len(text[line_start:index].encode("utf-16-le")) // 2
    return types.Position(line=line, character=character)


def apply_edits(text, edits):
    """Applies LSP text edits (UTF-16 ranges) to text."""
    lines = text.split("\n")

    def offset(pos):
        before = sum(len(line) + 1 for line in lines[: pos.line])
        units = lines[pos.line].encode("utf-16-le")[: pos.character * 2].decode("utf-16-le")
        return before + len(units)

    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        text = text[: offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end):]
    return text


def make_client():
    """pytest-lsp's client, also remembering the version each publishDiagnostics carried."""
    client = LanguageClient(converter_factory=default_converter)
    features = dict(DEFAULT_CLIENT_FEATURES)

    def published(params: types.PublishDiagnosticsParams):
        client.diagnostics[params.uri] = params.diagnostics
        client.last_versions[params.uri] = params.version

    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = published
    register_lsp_features(client, features)
    client.last_versions = {}
    return client


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[CYD, "lsp"], client_factory=make_client))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(types.InitializeParams(capabilities=types.ClientCapabilities()))
    yield
    await lsp_client.shutdown_session()


class Document:
    """An open document on the client side: its text and version, kept in step with the server."""

    def __init__(self, client, tmp_path, text, name="story.json"):
        self.client = client
        self.text = text
        self.version = 1
        path = tmp_path / name
        path.write_text(text)
        self.uri = path.as_uri()

    async def open(self):
        self.client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(uri=self.uri, language_id="json", version=self.version, text=self.text)
            )
        )
        return await self.diagnostics()

    async def diagnostics(self):
        """Waits until the diagnostics of the current version arrive, and returns them."""
        deadline = time.monotonic() + 20
        while self.published_version() != self.version:
            assert time.monotonic() < deadline, f"no diagnostics for version {self.version} in 20 s"
            await asyncio.sleep(0.002)
        return self.client.diagnostics[self.uri]

    def published_version(self):
        return self.client.last_versions.get(self.uri)

    def change(self, start, end, new_text):
        """Replaces text[start:end] (Python indices) with an incremental change."""
        range_ = types.Range(start=self.position_of(start), end=self.position_of(end))
        self.text = self.text[:start] + new_text + self.text[end:]
        self.version += 1
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=self.uri, version=self.version),
                content_changes=[types.TextDocumentContentChangePartial(range=range_, text=new_text)],
            )
        )

    def position_of(self, index):
        line = self.text.count("\n", 0, index)
        line_start = self.text.rfind("\n", 0, index) + 1
        return types.Position(line=line, character=len(self.text[line_start:index].encode("utf-16-le")) // 2)

    def identifier(self):
        return types.TextDocumentIdentifier(uri=self.uri)


async def test_diagnostics_on_open_carry_codes_utf16_ranges_and_links(client, tmp_path):
    doc = Document(client, tmp_path, STORY)
    diagnostics = await doc.open()
    missing = [d for d in diagnostics if d.code == "CYD302"]
    assert len(missing) == 1, diagnostics
    d = missing[0]
    assert d.severity == types.DiagnosticSeverity.Error
    assert d.source == "cyd"
    assert d.code_description.href.endswith("/docs/rules.md")
    assert "celar" in d.message
    # The range is the string "celar", quotes included, on a line with two emoji and an é before it.
    assert d.range.start == position(STORY, '"celar"')
    assert d.range.end == position(STORY, '"celar"', delta=len('"celar"'))


async def test_an_incremental_change_clears_the_finding_and_names_its_version(client, tmp_path):
    doc = Document(client, tmp_path, STORY)
    await doc.open()
    start = doc.text.index('"celar"') + 1
    doc.change(start, start + len("celar"), "end")
    diagnostics = await doc.diagnostics()
    assert not [d for d in diagnostics if d.code == "CYD302"], diagnostics
    assert doc.published_version() == doc.version


async def test_typing_a_chapter_character_by_character_never_crashes_or_leaves_stale_findings(client, tmp_path):
    doc = Document(client, tmp_path, STORY)
    await doc.open()
    insertion = doc.text.index("      {\n        \"id\": \"end\"")
    typed = '      {"id": "celar", "name": "The Cellar 🐱", "text": "Dark.", "choices": [{"chapter_id": "end", "text": "Up"}]},\n'
    # Step by step: every intermediate text is checked as it is (most do not parse), and each
    # publish is for the version just sent: the test waits for every one of them.
    for count, character in enumerate(typed):
        at = insertion + count
        doc.change(at, at, character)
        diagnostics = await doc.diagnostics()
        parses = True
        try:
            json.loads(doc.text)
        except ValueError:
            parses = False
        if not parses:
            assert any(d.code in ("CYD101", "CYD107") for d in diagnostics), (count, diagnostics)
    final = await doc.diagnostics()
    assert json.loads(doc.text)
    assert not [d for d in final if d.severity == types.DiagnosticSeverity.Error], final
    # A burst of changes with no pause is checked once, against the newest text.
    for character in "xyz":
        at = doc.text.index('Dark.')
        doc.change(at, at, character)
    await doc.diagnostics()
    assert doc.published_version() == doc.version


async def test_a_po_file_is_checked_against_the_story_it_translates(client, tmp_path):
    """translations/fr.po beside a story: an unknown id, a dropped [[name]]; fixing them clears both."""
    (tmp_path / "story.json").write_text(
        '{"story": {"id": "t", "name": "T", "rating": "G", "summary": "S", "chapters": ['
        '{"id": "hall", "name": "The Hall", "is_first_chapter": true, "text": "Dark.\\n\\nHello, [[name]]."}]}}'
    )
    (tmp_path / "translations").mkdir()
    (tmp_path / "translations" / "LINGUAS").write_text("fr\n")
    po = (
        'msgid ""\nmsgstr ""\n"Language: fr\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        '#. id: gone.title\nmsgctxt "Gone"\nmsgid "Gone"\nmsgstr "Parti"\n\n'
        '#. id: hall.text.2\nmsgctxt "The Hall"\nmsgid "Hello, [[name]]."\nmsgstr "Bonjour."\n'
    )
    doc = Document(client, tmp_path / "translations", po, name="fr.po")
    diagnostics = await doc.open()
    codes = sorted(d.code for d in diagnostics)
    assert codes == ["CYD161", "CYD162"], diagnostics
    unknown = next(d for d in diagnostics if d.code == "CYD161")
    assert unknown.range.start == position(po, "#. id: gone.title")
    assert "gone.title" in unknown.message
    placeholder = next(d for d in diagnostics if d.code == "CYD162")
    assert placeholder.severity == types.DiagnosticSeverity.Error
    assert placeholder.range.start == position(po, 'msgstr "Bonjour."')
    start = po.index('msgstr "Bonjour."') + len('msgstr "')
    doc.change(start, start + len("Bonjour."), "Bonjour, [[name]].")
    start = po.index("#. id: gone.title")
    end = po.index("#. id: hall.text.2")
    doc.change(start, end, "")
    assert list(await doc.diagnostics()) == []


async def test_definition_references_and_hover(client, tmp_path):
    doc = Document(client, tmp_path, STORY)
    await doc.open()
    target = position(STORY, '"end"', nth=0, delta=2)  # inside the choice's chapter_id
    declaration = position(STORY, '"id": "end"', delta=len('"id": '))

    locations = await client.text_document_definition_async(
        types.DefinitionParams(text_document=doc.identifier(), position=target)
    )
    assert len(locations) == 1
    assert locations[0].range.start == declaration

    references = await client.text_document_references_async(
        types.ReferenceParams(
            text_document=doc.identifier(), position=position(STORY, '"id": "end"', delta=8),
            context=types.ReferenceContext(include_declaration=False),
        )
    )
    assert [r.range.start for r in references] == [position(STORY, '"end"', nth=0)]

    hover = await client.text_document_hover_async(types.HoverParams(text_document=doc.identifier(), position=target))
    assert "The End" in hover.contents.value
    assert "Fin, the first line" in hover.contents.value
    assert "And more" not in hover.contents.value

    nothing = await client.text_document_hover_async(
        types.HoverParams(text_document=doc.identifier(), position=position(STORY, "Hello"))
    )
    assert nothing is None


async def test_completion_offers_chapter_ids_inside_chapter_id(client, tmp_path):
    doc = Document(client, tmp_path, STORY)
    await doc.open()
    at = doc.text.index('"celar"') + 1
    doc.change(at, at + len("celar"), "e")
    await doc.diagnostics()
    result = await client.text_document_completion_async(
        types.CompletionParams(text_document=doc.identifier(), position=doc.position_of(at + 1))
    )
    labels = {item.label for item in result.items}
    assert {"start", "end"} <= labels
    end_item = next(item for item in result.items if item.label == "end")
    assert end_item.detail == "The End"
    assert apply_edits(doc.text, [end_item.text_edit]).count('"chapter_id": "end"') == 2
    # Not inside a chapter_id: no chapter ids offered.
    elsewhere = await client.text_document_completion_async(
        types.CompletionParams(text_document=doc.identifier(), position=position(doc.text, "Hello", delta=2))
    )
    assert not elsewhere.items


async def test_rename_changes_the_id_and_every_choice_that_leads_there(client, tmp_path):
    doc = Document(client, tmp_path, STORY)
    await doc.open()
    at = position(STORY, '"id": "end"', delta=8)
    prepared = await client.text_document_prepare_rename_async(
        types.PrepareRenameParams(text_document=doc.identifier(), position=at)
    )
    assert prepared.placeholder == "end"
    edit = await client.text_document_rename_async(
        types.RenameParams(text_document=doc.identifier(), position=at, new_name="the \"last\" page 🐱")
    )
    renamed = apply_edits(STORY, edit.changes[doc.uri])
    story = json.loads(renamed)["story"]
    assert story["chapters"][1]["id"] == 'the "last" page 🐱'
    assert story["chapters"][0]["choices"][0]["chapter_id"] == 'the "last" page 🐱'
    with pytest.raises(Exception, match="already exists"):
        await client.text_document_rename_async(
            types.RenameParams(text_document=doc.identifier(), position=at, new_name="start")
        )


async def test_code_actions_repair_like_cyd_fix_and_create_a_missing_chapter(client, tmp_path):
    text = STORY.replace('"choices": []\n', '"choices": [],\n')  # a trailing comma
    doc = Document(client, tmp_path, text)
    diagnostics = await doc.open()
    comma = next(d for d in diagnostics if d.code == "CYD102")
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=doc.identifier(), range=comma.range,
            context=types.CodeActionContext(diagnostics=[comma]),
        )
    )
    fix = next(a for a in actions if a.title.startswith("CYD102"))
    assert fix.kind == types.CodeActionKind.QuickFix
    assert fix.diagnostics and fix.diagnostics[0].code == "CYD102"
    repaired = apply_edits(text, fix.edit.changes[doc.uri])
    assert repaired == STORY

    missing = next(d for d in diagnostics if d.code == "CYD302")
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=doc.identifier(), range=missing.range,
            context=types.CodeActionContext(diagnostics=[missing]),
        )
    )
    create = next(a for a in actions if a.title == "Create chapter 'celar'")
    created = json.loads(apply_edits(STORY, create.edit.changes[doc.uri]))
    assert [c["id"] for c in created["story"]["chapters"]] == ["start", "end", "celar"]


async def test_document_symbols_outline_the_chapters_by_title(client, tmp_path):
    doc = Document(client, tmp_path, STORY)
    await doc.open()
    symbols = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=doc.identifier())
    )
    assert [s.name for s in symbols] == ["Début 🐱", "The End"]
    assert [s.detail for s in symbols] == ["start", "end"]
    assert symbols[1].selection_range.start == position(STORY, '"id": "end"', delta=len('"id": '))


def generated_story(chapters):
    lines = []
    for i in range(chapters):
        nxt = f'{{"chapter_id": "c{i + 1}", "text": "On"}}' if i + 1 < chapters else ""
        first = '"is_first_chapter": true, ' if i == 0 else ""
        ending = '"is_ending": true, ' if i + 1 == chapters else ""
        lines.append(f'      {{"id": "c{i}", "name": "Chapter {i}", {first}{ending}"text": "Text of chapter {i}.", "choices": [{nxt}]}}')
    return '{\n  "story": {\n    "id": "big", "name": "Big", "rating": "G", "summary": "Generated",\n    "chapters": [\n' + ",\n".join(lines) + "\n    ]\n  }\n}\n"


async def test_typing_in_a_large_story_is_answered_promptly(client, tmp_path):
    """1k chapters: diagnostics follow each change promptly (median of ten edits; the speed
    itself is a benchmark's to measure); 10k chapters: still answered, and requests between
    edits too."""
    doc = Document(client, tmp_path, generated_story(1000))
    await doc.open()
    delays = []
    for n in range(10):
        at = doc.text.index('Text of chapter 500.')
        doc.change(at, at, "x")
        sent = time.monotonic()
        await doc.diagnostics()
        delays.append(time.monotonic() - sent)
    median = statistics.median(delays)
    print(f"1k chapters: diagnostics {median * 1000:.0f} ms after the last change (median of 10, 50 ms debounce)")
    # The target is 100 ms on a release build. The suite runs a debug build beside the fuzzers
    # and a release build on two cores, where the median has reached 246 ms; a timed bound near
    # the target only measures the machine's load. This one catches what a test can: a debounce
    # that waits seconds, or a check that no longer answers each edit (1.5 s, 30 debounces).
    assert median < 1.5, delays

    (tmp_path / "big").mkdir()
    big = Document(client, tmp_path, generated_story(10000), name="big/story.json")
    await big.open()
    at = big.text.index('Text of chapter 5000.')
    big.change(at, at, "y")
    started = time.monotonic()
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=big.identifier(), position=position(big.text, '"chapter_id": "c9000"', delta=17))
    )
    assert "Chapter 9000" in hover.contents.value
    await big.diagnostics()
    print(f"10k chapters: hover and diagnostics after an edit in {(time.monotonic() - started) * 1000:.0f} ms")


def frame(message):
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def test_exit_codes_follow_the_protocol():
    initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}
    orderly = frame(initialize) + frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}) + frame({"jsonrpc": "2.0", "method": "exit"})
    assert subprocess.run([CYD, "lsp"], input=orderly, capture_output=True, timeout=30).returncode == 0
    abrupt = frame(initialize) + frame({"jsonrpc": "2.0", "method": "exit"})
    assert subprocess.run([CYD, "lsp"], input=abrupt, capture_output=True, timeout=30).returncode == 1
    # shutdown, then the input ends with no exit: not an orderly end
    hung_up = frame(initialize) + frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
    assert subprocess.run([CYD, "lsp"], input=hung_up, capture_output=True, timeout=30).returncode == 1


def replies_of(output):
    replies = []
    rest = output
    while rest:
        header, rest = rest.split(b"\r\n\r\n", 1)
        length = int(header.split(b":")[1])
        replies.append(json.loads(rest[:length]))
        rest = rest[length:]
    return replies


def test_a_header_that_never_ends_closes_the_connection_in_words_at_once():
    initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}
    # 50 MB of a header with no blank line: refused after a few KB, not searched again and again
    endless = frame(initialize) + b"Content-Length: 10\r\nX-Padding: " + b"a" * (50 << 20)
    started = time.monotonic()
    result = subprocess.run([CYD, "lsp"], input=endless, capture_output=True, timeout=60)
    assert time.monotonic() - started < 20
    assert result.returncode == 1
    logs = [r for r in replies_of(result.stdout) if r.get("method") == "window/logMessage"]
    assert logs and "header ran past 8192 bytes" in logs[0]["params"]["message"]


def test_a_lone_surrogate_in_a_document_is_read_not_refused():
    initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}
    # The editor's text holds a lone surrogate (JavaScript strings can); json.dumps writes it as \\ud800.
    story = '{"story": {"id": "s", "name": "S\ud800", "rating": "G", "summary": "S", "chapters": []}}'
    opened = {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": "file:///tmp/story.json", "languageId": "json", "version": 1, "text": story}}}
    assert b"\\ud800" in frame(opened)
    messages = frame(initialize) + frame(opened) \
        + frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}) + frame({"jsonrpc": "2.0", "method": "exit"})
    result = subprocess.run([CYD, "lsp"], input=messages, capture_output=True, timeout=30)
    assert result.returncode == 0
    replies = replies_of(result.stdout)
    assert not [r for r in replies if r.get("error", {}).get("code") == -32700], replies
    assert [r for r in replies if r.get("method") == "textDocument/publishDiagnostics"], "the document was opened and checked"


def test_garbage_gets_protocol_errors_not_a_crash():
    messages = (
        b"Content-Length: 5\r\n\r\n{oops"
        + frame({"jsonrpc": "2.0", "id": 1, "method": "textDocument/hover", "params": {}})
        + frame({"jsonrpc": "2.0", "id": 2, "method": "initialize", "params": {"capabilities": {}}})
        + frame({"jsonrpc": "2.0", "id": 3, "method": "no/such/method"})
        + frame({"jsonrpc": "2.0", "id": 4, "method": "textDocument/definition", "params": {"textDocument": {"uri": "file:///nowhere/story.json"}, "position": {"line": 0, "character": 0}}})
        + frame({"jsonrpc": "2.0", "id": 5, "method": "shutdown"})
        + frame({"jsonrpc": "2.0", "method": "exit"})
    )
    result = subprocess.run([CYD, "lsp"], input=messages, capture_output=True, timeout=30)
    assert result.returncode == 0, result.stderr
    replies = replies_of(result.stdout)
    codes = {r.get("id"): r.get("error", {}).get("code") for r in replies}
    assert codes[None] == -32700  # not JSON
    assert codes[1] == -32002  # before initialize
    assert codes[3] == -32601  # unknown method
    assert codes[4] == -32602  # a document that is not open
    assert codes[5] is None


def test_an_oversized_message_is_skipped_and_said():
    initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}
    messages = frame(initialize) + b"Content-Length: 300000000\r\n\r\n" + b"x" * 1000
    result = subprocess.run([CYD, "lsp"], input=messages, capture_output=True, timeout=30)
    assert result.returncode == 1  # input ended without shutdown
    assert b"skipped a message of 300000000 bytes" in result.stdout


async def test_an_authors_file_gets_the_catalogue_rules(client, tmp_path):
    authors = '{"authors": [{"name": "not a user name!"}]}\n'
    doc = Document(client, tmp_path, authors, name="authors.json")
    diagnostics = await doc.open()
    invalid = [d for d in diagnostics if d.code == "CYD902"]
    assert len(invalid) == 1, diagnostics
    assert invalid[0].range.start == position(authors, '"not a user name!"')
    # No story navigation in an authors file, and no error for asking.
    symbols = await client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=doc.identifier()))
    assert not symbols
