#!/usr/bin/env python3
"""Turns a Markdown page of docs/ into a man page (roff, man macros).

  md2man.py docs/stencilcc.md stencilcc.1 --name stencilcc --section 1
      --version 0.1.0

Knows what docs/ uses: headings, paragraphs, fenced code, numbered and
bulleted lists, tables (kept as preformatted text), `code`, **bold**,
*emphasis* and [links](target) (the text stays). The page ends at a line
`<!-- man: end -->`, so design notes after it stay out of the manual.
The first heading's text after a colon becomes the NAME line.
"""
import argparse
import os
import re
import sys


def escape(text):
    text = text.replace("\\", "\\e")
    # A line starting with . or ' would be a request.
    return re.sub(r"^([.'])", r"\\&\1", text)


def inline(text):
    text = escape(text)
    text = re.sub(r"\[([^\]]+)\]\([^)]+\)", r"\1", text)
    text = re.sub(r"`([^`]+)`", r"\\fB\1\\fR", text)
    text = re.sub(r"\*\*([^*]+)\*\*", r"\\fB\1\\fR", text)
    text = re.sub(r"(?<![\w*])\*([^*\s][^*]*)\*(?![\w*])", r"\\fI\1\\fR", text)
    return text.replace("-", "\\-")


def convert(lines, name, section, version):
    out = []
    block = []  # the lines of the paragraph or list item being read

    def flush():
        if block:
            out.append(inline(" ".join(l.strip() for l in block)))
            block.clear()

    code = False
    state = "start"  # then "synopsis" after the title, "body" after it
    for line in lines:
        if line.strip() == "<!-- man: end -->":
            break
        if line.startswith("```"):
            flush()
            code = not code
            out.append(".PP\n.RS 4\n.nf" if code else ".fi\n.RE")
            if not code and state == "synopsis":
                out.append(".SH DESCRIPTION")
                state = "body"
            continue
        if code:
            out.append(escape(line))
            continue
        heading = re.match(r"^(#+)\s+(.*)", line)
        if heading:
            flush()
            level, text = len(heading.group(1)), heading.group(2)
            if state == "start":
                summary = text.split(":", 1)[-1].strip()
                out.append(".SH NAME\n%s \\- %s\n.SH SYNOPSIS" %
                           (name, inline(summary)))
                state = "synopsis"
            elif level <= 2:
                out.append(".SH " + inline(text.upper()))
            else:
                out.append(".SS " + inline(text))
            continue
        if not line.strip():
            flush()
            out.append(".PP")
            continue
        if line.startswith("|"):
            flush()
            if re.match(r"^\|[-|: ]+\|$", line.strip()):
                continue
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            out.append(".nf\n" + inline("  ".join(cells)) + "\n.fi")
            continue
        item = re.match(r"^(\s*)([-*]|\d+\.)\s+(.*)", line)
        if item:
            flush()
            mark = "\\(bu" if item.group(2) in "-*" else item.group(2)
            out.append(".IP %s 4" % mark)
            block.append(item.group(3))
            continue
        block.append(line)
    flush()
    text = "\n".join(out)
    # Paragraph breaks that follow another break or a section say nothing.
    text = re.sub(r"(\.PP\n)+(\.(SH|SS|PP|IP))", r"\2", text)
    text = re.sub(r"(\.S[HS] [^\n]*\n)\.PP\n", r"\1", text)
    header = '.TH %s %s "" "stencil-mlir %s" "stencil-mlir manual"\n' % (
        name.upper(), section, version)
    return header + text.strip() + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("input")
    parser.add_argument("output")
    parser.add_argument("--name", required=True)
    parser.add_argument("--section", default="1")
    parser.add_argument("--version", default="")
    args = parser.parse_args()
    with open(args.input, encoding="utf-8") as f:
        lines = f.read().splitlines()
    page = convert(lines, args.name, args.section, args.version)
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    with open(args.output, "w", encoding="utf-8") as f:
        f.write(page)
    return 0


if __name__ == "__main__":
    sys.exit(main())
