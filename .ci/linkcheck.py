"""Checks every link of a built static site: each relative address names a file of the site,
and each #anchor an id (or name) on the page it points at. Addresses with a scheme
(https:, mailto:) are left alone: CI has no internet. Exits 1 listing every broken link."""

import html.parser
import pathlib
import sys
import urllib.parse


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.ids = [], set()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for key in ("id", "name"):
            if a.get(key):
                self.ids.add(a[key])
        for key in ("href", "src"):
            if a.get(key) and tag in ("a", "img", "link", "script"):
                self.links.append(a[key])


def main(root: pathlib.Path) -> int:
    pages = {}
    for f in root.rglob("*.html"):
        p = Page()
        p.feed(f.read_text(encoding="utf-8"))
        pages[f.resolve()] = p
    broken = []
    for f, p in pages.items():
        for link in p.links:
            u = urllib.parse.urlsplit(link)
            if u.scheme or link.startswith("//"):
                continue
            target = f if not u.path else (f.parent / urllib.parse.unquote(u.path)).resolve()
            if target.is_dir():
                target = target / "index.html"
            if not target.exists():
                broken.append(f"{f.relative_to(root.resolve())}: {link} (no such file)")
                continue
            if u.fragment and target in pages and u.fragment not in pages[target].ids:
                broken.append(f"{f.relative_to(root.resolve())}: {link} (no such anchor)")
    for b in broken:
        print(b)
    print(f"{len(pages)} pages, {sum(len(p.links) for p in pages.values())} links, {len(broken)} broken")
    return 1 if broken else 0


def markdown(file: pathlib.Path) -> int:
    """The relative links of one Markdown file (the README) name files that exist."""
    import re

    broken = []
    for link in re.findall(r"\]\(([^)\s]+)\)", file.read_text(encoding="utf-8")):
        u = urllib.parse.urlsplit(link)
        if u.scheme or not u.path:
            continue
        if not (file.parent / u.path).exists():
            broken.append(f"{file}: {link} (no such file)")
    for b in broken:
        print(b)
    return 1 if broken else 0


if __name__ == "__main__":
    if sys.argv[1] == "--markdown":
        sys.exit(max(markdown(pathlib.Path(f)) for f in sys.argv[2:]))
    sys.exit(main(pathlib.Path(sys.argv[1])))
