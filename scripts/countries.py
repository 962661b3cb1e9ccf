#!/usr/bin/env python3
"""Writes assets/i18n/countries.csv: every ISO 3166-1 country's alpha-2 code and its name in
English, Italian and Croatian, from Debian's iso-codes package (its JSON list and gettext
catalogues; `apt-get install iso-codes`). Run it again when iso-codes changes."""
import csv, gettext, json, sys

SOURCE = "/usr/share/iso-codes/json/iso_3166-1.json"
countries = json.load(open(SOURCE))["3166-1"]
names = {"en": lambda s: s}
for lang in ("it", "hr"):
    names[lang] = gettext.translation("iso_3166-1", "/usr/share/locale", languages=[lang]).gettext
out = csv.writer(open(sys.argv[1] if len(sys.argv) > 1 else "assets/i18n/countries.csv", "w"), delimiter=";", lineterminator="\n")
out.writerow(["code", "en", "it", "hr"])
for c in sorted(countries, key=lambda c: c["alpha_2"]):
    name = c.get("common_name", c["name"])
    out.writerow([c["alpha_2"]] + [names[l](name) for l in ("en", "it", "hr")])
