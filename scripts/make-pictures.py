#!/usr/bin/env python3
"""Writes the pictures the picture tests and scripts/bench-read.sh use, with Pillow.

usage: scripts/make-pictures.py small DIR   the small fixtures (committed in Tests/Fixtures/pictures)
       scripts/make-pictures.py photo FILE  a 3560x2373 JPEG of about 3 MB carrying EXIF GPS, like
                                            PrototypeStory's pub.jpg (not committed: made when needed)
       scripts/make-pictures.py hostile DIR small progressive JPEGs that claim what would hold a
                                            reader (committed in Tests/Fixtures/hostile-pictures)
Every picture is drawn here from gradients and noise: nothing is taken from elsewhere.
"""
import sys
from PIL import Image, ImageDraw


def scene(width, height, noise=False):
    """A sky-to-sea gradient with a sun and noise: something with edges and colours to draw."""
    sky = Image.linear_gradient("L").resize((width, height))
    red = sky.point(lambda v: 40 + v // 3)
    green = sky.point(lambda v: 90 + v // 4)
    blue = Image.new("L", (width, height), 200)
    picture = Image.merge("RGB", (red, green, blue))
    draw = ImageDraw.Draw(picture)
    draw.rectangle((0, height * 2 // 3, width, height), fill=(20, 60, 110))
    r = min(width, height) // 6
    draw.ellipse((width // 2 - r, height // 3 - r, width // 2 + r, height // 3 + r), fill=(250, 200, 60))
    if noise:
        noise = Image.effect_noise((width, height), 40).convert("RGB")
        picture = Image.blend(picture, noise, 0.25)
    return picture


def gps_exif():
    exif = Image.Exif()
    # GPS IFD (tag 0x8825): 51 deg 30' N, 0 deg 7' W, where a photo might have been taken.
    exif[0x010F] = "CYD test camera"
    gps = {1: "N", 2: (51.0, 30.0, 0.0), 3: "W", 4: (0.0, 7.0, 0.0)}
    exif[0x8825] = gps
    return exif


def small(folder):
    scene(64, 40).save(f"{folder}/scene.png")
    scene(960, 600).save(f"{folder}/harbour.png")
    scene(64, 40).convert("L").save(f"{folder}/grey.png")
    scene(64, 40).quantize(16).save(f"{folder}/palette.png", transparency=0)
    scene(64, 40).save(f"{folder}/scene.jpg", quality=85)
    scene(64, 40).convert("CMYK").save(f"{folder}/cmyk.jpg", quality=85)
    scene(64, 40).save(f"{folder}/gps.jpg", quality=85, exif=gps_exif())
    scene(64, 40).save(f"{folder}/scene.webp", quality=80)
    frames = [scene(48, 32), scene(48, 32).transpose(Image.Transpose.FLIP_LEFT_RIGHT)]
    frames[0].save(f"{folder}/scene.gif", save_all=True, append_images=frames[1:], duration=200, loop=0)
    frames[0].save(f"{folder}/animated.webp", save_all=True, append_images=frames[1:], duration=200, loop=0)
    scene(4096 + 8, 16).save(f"{folder}/wide.png")
    scene(3, 600).save(f"{folder}/thin.png")
    with open(f"{folder}/scene.jpg", "rb") as whole, open(f"{folder}/truncated.jpg", "wb") as cut:
        data = whole.read()
        cut.write(data[: len(data) - 300])
    with open(f"{folder}/not-a-picture.jpg", "w") as text:
        text.write("version https://git-lfs.github.com/spec/v1\n")


def patch_frame_size(data, width, height):
    """Writes another size into a JPEG's frame header (SOF0-SOF15 but DHT, JPG, DAC)."""
    data = bytearray(data)
    offset = 2
    while offset + 4 <= len(data):
        marker, length = data[offset + 1], int.from_bytes(data[offset + 2:offset + 4], "big")
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            data[offset + 5:offset + 7] = height.to_bytes(2, "big")
            data[offset + 7:offset + 9] = width.to_bytes(2, "big")
            return bytes(data)
        offset += 2 + length
    raise ValueError("no frame header")


def hostile(folder):
    import io
    # 1. A few hundred bytes of progressive CMYK 4:4:4 claiming 11585 x 11585: decoding it would
    #    need a gigabyte of DCT coefficients.
    out = io.BytesIO()
    Image.new("CMYK", (16, 16), (10, 20, 30, 0)).save(out, "JPEG", progressive=True, subsampling=0, quality=30)
    open(f"{folder}/progressive-huge.jpg", "wb").write(patch_frame_size(out.getvalue(), 11585, 11585))
    # 2. A progressive JPEG claiming 4000 x 4000 whose last scan is repeated 500 times: every scan
    #    walks the whole picture again.
    out = io.BytesIO()
    scene(64, 64).save(out, "JPEG", progressive=True, quality=40)
    data = out.getvalue()
    last_scan = data.rindex(b"\xff\xda")
    end = data.rindex(b"\xff\xd9")
    many = data[:last_scan] + data[last_scan:end] * 500 + data[end:]
    open(f"{folder}/many-scans.jpg", "wb").write(patch_frame_size(many, 4000, 4000))


def photo(path):
    scene(3560, 2373, noise=True).save(path, quality=92, exif=gps_exif())


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("small", "photo", "hostile"):
        sys.exit(__doc__)
    {"small": small, "photo": photo, "hostile": hostile}[sys.argv[1]](sys.argv[2])
