"""Reads QR codes made by cyd (TerminalUI.QRCode) with a real decoder, zbar's zbarimg, as a
phone's camera would.

Reads JSON lines on stdin: {"text": ..., "rows": ["0101...", ...]}; draws each code as a PNG
(Pillow: four pixels a module, four modules of quiet zone) in a temporary folder, decodes them
all with one zbarimg run, and prints "read N" when every code reads back as its text, else the
first that does not, and exits 1.
"""
import json
import subprocess
import sys
import tempfile

from PIL import Image

codes = [json.loads(line) for line in sys.stdin if line.strip()]
with tempfile.TemporaryDirectory() as folder:
    paths = []
    for number, code in enumerate(codes):
        rows = code["rows"]
        size, scale, quiet = len(rows), 4, 4
        image = Image.new("L", ((size + 2 * quiet) * scale,) * 2, 255)
        for y, row in enumerate(rows):
            for x, module in enumerate(row):
                if module == "1":
                    for dy in range(scale):
                        for dx in range(scale):
                            image.putpixel(((x + quiet) * scale + dx, (y + quiet) * scale + dy), 0)
        path = f"{folder}/{number:04d}.png"
        image.save(path)
        paths.append(path)
    read = []
    for path in paths:
        run = subprocess.run(["zbarimg", "--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", path], capture_output=True)
        read.append(run.stdout.decode("utf-8", "replace").removesuffix("\n"))
for code, text in zip(codes, read):
    if text != code["text"]:
        print(f"{code.get('label', '')}: zbarimg read {text!r}, the code holds {code['text']!r}")
        sys.exit(1)
print(f"read {len(codes)}")
