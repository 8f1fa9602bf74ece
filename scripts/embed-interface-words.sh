#!/usr/bin/env bash
# Keeps the translations of cyd's words for readers in the program: writes
# Sources/InterfaceWords/Catalogues.swift from Sources/InterfaceWords/translations/LANG.po, one
# for each language LINGUAS lists, without the files' opening comments. Run it after editing a
# PO file (InterfaceWordsTests fail until the program holds what the files say).
#
# usage: scripts/embed-interface-words.sh
set -euo pipefail
cd "$(dirname "$0")/.."
python3 - <<'PY'
import pathlib
folder = pathlib.Path("Sources/InterfaceWords/translations")
languages = []
for line in (folder / "LINGUAS").read_text(encoding="utf-8").splitlines():
    languages += line.split("#", 1)[0].split()
out = ["// Made from translations/*.po by scripts/embed-interface-words.sh; edit the PO files, not this.",
       "extension Catalogues {",
       "    static let embedded: [String: String] = ["]
for language in languages:
    text = (folder / (language + ".po")).read_text(encoding="utf-8")
    # The file's opening comments (what made it, for translators) are not kept in the program.
    lines = text.split("\n")
    while lines and lines[0].startswith("#"):
        lines.pop(0)
    text = "\n".join(lines)
    hashes = "#"
    # A raw string ends at """# and interpolates at \#(: more hashes than the text holds.
    while ('"""' + hashes) in text or ("\\" + hashes) in text:
        hashes += "#"
    tag = language.replace("_", "-")
    # The line break before the closing quotes is not the string's: the text keeps its own last one.
    out.append(f'        "{tag}": {hashes}"""\n{text}\n"""{hashes},')
out += ["    ]", "}", ""]
pathlib.Path("Sources/InterfaceWords/Catalogues.swift").write_text("\n".join(out), encoding="utf-8")
print(f"{len(languages)} languages -> Sources/InterfaceWords/Catalogues.swift")
PY
