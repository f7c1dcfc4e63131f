#!/usr/bin/env python3
"""Writes src/cli/startup_layout.ld: the code the server runs from start to its first served
request, gathered in one place of the executable.

Why: the kernel maps an executable's code 64 KB at a time around each page the process touches
(fault-around). Starting the server runs ~2,300 functions, most of them RocksDB's (its static
option tables, DB::Open, the OPTIONS file), spread over ~100 of those 64 KB windows of the 11 MB
of code, so an idle server kept 6 MB of code resident for 2 MB it had used. The linker script
this writes names every input section that start ran (a `.text` of one archive member, or one
inline or template function's own section) in an output section placed before `.text`.

How: relink the built executable with a link map, run it under callgrind (every executed
instruction address) until it answers GET / on a fresh RocksDB directory and once more in
memory, and list the input sections holding those addresses, in their present order. The result
only moves code: a stale or missing entry costs locality, never behaviour. Run it again after a
RocksDB upgrade or large changes to start-up:

    scripts/startup_layout.py [--build build]      # needs valgrind and a built build/monotable
"""
import argparse
import bisect
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Section names every object file uses for its own code: those are named together with their file.
GENERIC = {".text", ".text.unlikely", ".text.startup", ".text.hot", ".text.exit"}


def relink_with_map(build, out_dir):
    """The executable's link command, with the output and a map redirected to out_dir."""
    cmd = subprocess.run(["ninja", "-C", build, "-t", "commands", "monotable"], check=True,
                         capture_output=True, text=True).stdout.strip().splitlines()[-1]
    binary, link_map = os.path.join(out_dir, "monotable"), os.path.join(out_dir, "monotable.map")
    cmd = cmd.replace(" -o monotable ", f" -o {binary} -Wl,-Map={link_map} ")
    # Linked without the present layout: valgrind attributes code outside the .text section to no
    # object, and which sections start-up runs does not depend on where they are.
    cmd = re.sub(r" -Wl,-T,\S*startup_layout\.ld", "", cmd)
    subprocess.run(cmd, shell=True, check=True, cwd=build)
    return binary, link_map


def input_sections(link_map):
    """(address, size, section name, file) of every input section in a .text* output section."""
    sections, in_text, pending = [], False, None
    for line in open(link_map):
        if re.match(r"^\.\S", line):
            in_text = line.startswith(".text")
            continue
        if not in_text:
            continue
        m = re.match(r"^ (\.text\S*)\s*$", line)
        if m:
            pending = m.group(1)
            continue
        m = re.match(r"^ (\.text\S*)?\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S.*)$", line)
        if m:
            name, pending = m.group(1) or pending, None
            address, size = int(m.group(2), 16), int(m.group(3), 16)
            if size and name:
                sections.append((address, size, name, m.group(4).strip()))
    return sorted(sections)


def wait_for_http(port, proc, seconds=120):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if proc.poll() is not None:
            sys.exit(f"the server exited early ({proc.returncode})")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1).read()
            return
        except Exception:
            time.sleep(0.2)
    sys.exit("the server did not answer under callgrind")


def executed_addresses(binary, out_dir, engine_args, port):
    """Instruction addresses of `binary` that callgrind saw run up to the first served GET /."""
    out = os.path.join(out_dir, f"callgrind.{port}")
    proc = subprocess.Popen(["valgrind", "--tool=callgrind", "--dump-instr=yes", f"--callgrind-out-file={out}",
                             binary, "serve", "--host", "127.0.0.1", "--port", str(port), *engine_args],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_for_http(port, proc)
    time.sleep(1.0)  # the background threads settle, as in an idle server
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=120)
    objects, current, last, found = {}, None, 0, set()
    for line in open(out):
        if line.startswith(("ob=", "cob=")):
            m = re.match(r"c?ob=\((\d+)\)(?:\s+(.*))?", line.strip())
            if m and m.group(2):
                objects[m.group(1)] = m.group(2)
            if line.startswith("ob="):
                current = objects.get(m.group(1)) if m else line[3:].strip()
            continue
        if not line or line[0] not in "0123456789+-*":
            continue
        token = line.split()[0]
        if token.startswith("0x"):
            last = int(token, 16)
        elif token[0] == "+":
            last += int(token[1:], 0)
        elif token[0] == "-":
            last -= int(token[1:], 0)
        elif token != "*":
            continue
        if current and os.path.realpath(current) == os.path.realpath(binary):
            found.add(last)
    return found


def pattern(name, file):
    """The linker-script pattern for one input section."""
    if name not in GENERIC:
        return f"*({name})"
    m = re.match(r"^(.*)\((.*)\)$", file)  # archive member: /path/libx.a(member.o)
    if m:
        return f"*{os.path.basename(m.group(1))}:{m.group(2)}({name})"
    return f"*{os.path.basename(file)}({name})"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--output", default=os.path.join(ROOT, "src", "cli", "startup_layout.ld"))
    args = parser.parse_args()
    out_dir = tempfile.mkdtemp(prefix="startup-layout-")
    try:
        binary, link_map = relink_with_map(args.build, out_dir)
        sections = input_sections(link_map)
        starts = [s[0] for s in sections]
        data_dir = os.path.join(out_dir, "data")
        addresses = executed_addresses(binary, out_dir, ["--data", data_dir], 8941)
        addresses |= executed_addresses(binary, out_dir, ["--in-memory"], 8942)
        chosen = {}
        for a in addresses:
            i = bisect.bisect_right(starts, a) - 1
            if i >= 0 and sections[i][0] <= a < sections[i][0] + sections[i][1]:
                chosen[i] = sections[i]
        lines, seen = [], set()
        for i in sorted(chosen):
            p = pattern(chosen[i][2], chosen[i][3])
            if p not in seen:
                seen.add(p)
                lines.append(f"    {p}")
        size = sum(s[1] for s in chosen.values())
        with open(args.output, "w") as f:
            f.write("/* The code the server runs from start to its first served request, in one place: see\n"
                    "   scripts/startup_layout.py, which wrote this file (do not edit by hand). */\n"
                    "SECTIONS\n{\n  .text.startup_path :\n  {\n" + "\n".join(lines) + "\n  }\n}\nINSERT BEFORE .text;\n")
        print(f"{len(lines)} input sections, {size // 1024} KB of code, written to {args.output}")
    finally:
        shutil.rmtree(out_dir, ignore_errors=True)


if __name__ == "__main__":
    main()
