"""Helpers of scripts/bench-author.sh.

usage: author-bench.py edit STORY OUT         a second version of STORY: 1% of chapters' text
                                              edited, 100 chapters renamed (their choices follow)
       author-bench.py latency CYD FOLDER N   starts `cyd preview FOLDER`, saves story.json N
                                              times as editors do (a new file renamed over the
                                              old), and prints the milliseconds from each save to
                                              the page made from it, as JSON
"""

import json
import os
import random
import re
import statistics
import subprocess
import sys
import threading
import time
import urllib.request


def edit(story_path, out_path):
    data = json.load(open(story_path))
    chapters = data["story"]["chapters"]
    random.seed(1)
    renamed = {c["id"]: c["id"] + "-renamed" for c in random.sample(chapters[1:], 100)}
    for chapter in chapters:
        chapter["id"] = renamed.get(chapter["id"], chapter["id"])
        for choice in chapter.get("choices", []):
            choice["chapter_id"] = renamed.get(choice["chapter_id"], choice["chapter_id"])
    for chapter in random.sample(chapters, len(chapters) // 100):
        chapter["text"] = chapter["text"].replace(" the ", " a ", 1) + " More words here."
    json.dump(data, open(out_path, "w"))


def latency(cyd, folder, runs):
    process = subprocess.Popen([cyd, "preview", folder], stdout=subprocess.PIPE, text=True)
    try:
        port = re.search(r"127\.0\.0\.1:(\d+)", process.stdout.readline()).group(1)
        base = f"http://127.0.0.1:{port}"
        path = os.path.join(folder, "story.json")
        original = open(path).read()
        data = json.loads(original)
        first = data["story"]["chapters"][0]["id"]
        time.sleep(1.0)
        times = []
        for run in range(runs):
            page = urllib.request.urlopen(f"{base}/chapter/{first}").read().decode()
            version = int(re.search(r'data-version="(\d+)"', page).group(1))
            data["story"]["chapters"][0]["text"] = f"Edit {run}. " + json.loads(original)["story"]["chapters"][0]["text"]
            with open(path + ".tmp", "w") as out:
                json.dump(data, out)
            waiter = threading.Thread(target=lambda: urllib.request.urlopen(f"{base}/changes?since={version}&asked=0", timeout=60).read())
            waiter.start()
            time.sleep(0.2)
            saved = time.monotonic()
            os.replace(path + ".tmp", path)
            waiter.join()
            page = urllib.request.urlopen(f"{base}/chapter/{first}").read().decode()
            times.append((time.monotonic() - saved) * 1000)
            if f"Edit {run}." not in page:
                raise SystemExit("the page did not follow the save")
        with open(path, "w") as out:
            out.write(original)
        print(json.dumps({"median_ms": statistics.median(times), "max_ms": max(times), "runs": [round(t, 1) for t in times]}))
    finally:
        process.terminate()
        process.wait()


if sys.argv[1] == "edit":
    edit(sys.argv[2], sys.argv[3])
else:
    latency(sys.argv[2], sys.argv[3], int(sys.argv[4]))
