"""Independent checks of FatturaPA files: the official 1.2.3 schema with xmlschema (not
innkeep's own validator), and a38 (Truelite's FatturaPA model, a second implementation)
parsing each file and validating its model rules.

Usage: check.py SCHEMA.xsd FILE.xml...   Exit 1 when any file fails either check.

a38 0.1.8 wrongly reports 00426 for the consumer case `CodiceDestinatario 0000000` without a
PEC (SdI accepts it: the invoice goes to the buyer's reserved area); that one finding is
ignored for such files and nothing else.
"""

import os
import subprocess
import sys

import xmlschema

HERE = os.path.dirname(os.path.abspath(__file__))
DSIG = "http://www.w3.org/2000/09/xmldsig#"


def main():
    schema_path, files = sys.argv[1], sys.argv[2:]
    if not files:
        print("no FatturaPA files to check")
        return 1
    schema = xmlschema.XMLSchema(
        schema_path, locations={DSIG: os.path.join(HERE, "xmldsig-core-schema.xsd")}
    )
    a38tool = os.path.join(os.path.dirname(sys.executable), "a38tool")
    failed = 0
    for f in files:
        problems = [str(e).splitlines()[0] for e in schema.iter_errors(f)]
        with open(f, encoding="utf-8") as fh:
            text = fh.read()
        consumer = "<CodiceDestinatario>0000000</CodiceDestinatario>" in text and "<PECDestinatario>" not in text
        run = subprocess.run([a38tool, "validate", f], capture_output=True, text=True)
        for line in (run.stdout + run.stderr).splitlines():
            if consumer and "[00426]" in line:
                continue
            if line.strip():
                problems.append("a38: " + line.strip())
        parsed = subprocess.run([a38tool, "json", f], capture_output=True, text=True)
        if parsed.returncode != 0 or '"numero"' not in parsed.stdout:
            problems.append("a38 could not read it: " + parsed.stderr.strip()[:300])
        if problems:
            failed += 1
            print(f"FAIL {os.path.basename(f)}")
            for p in problems:
                print(f"  {p}")
        else:
            print(f"ok   {os.path.basename(f)}")
    print(f"{len(files) - failed} of {len(files)} FatturaPA files pass the 1.2.3 schema (xmlschema) and a38")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
