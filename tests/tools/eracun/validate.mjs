#!/usr/bin/env node
// Independent validator for Croatian e-invoices (UBL 2.1 Invoice / CreditNote).
//
// Runs two Schematron stages (precompiled XSLT, see README.md in this directory):
//   1. EN 16931 UBL validation (CEN/ConnectingEurope)      -> stage "EN16931"
//   2. HR-CIUS-EXT-EN16931-UBL (Croatian CIUS + extension)  -> stage "HR-CIUS"
// with SaxonJS (npm: xslt3@2.7.0 / saxon-js), and prints one JSON line per input:
//
//   {"file":"x.xml","valid":true,"failures":[{"id":"BR-CO-15","flag":"fatal",
//    "location":"/...","text":"...","stage":"EN16931"}]}
//
// "valid" is false when any failed assert / successful report has flag fatal or
// error (or no flag at all); warning / information entries are listed but do not
// invalidate. Input that is not well-formed XML, or whose root is not a UBL
// Invoice / CreditNote, is reported as invalid with the pseudo rule ids
// "XML-PARSE" / "UBL-ROOT"; a dynamic error raised while running the rules (e.g.
// an impossible date such as 2026-13-01) as "XSLT-DYNAMIC-ERROR".
//
// Usage: node tests/tools/eracun/validate.mjs FILE.xml [FILE2.xml ...]   ("-" = stdin)
//        node tests/tools/eracun/validate.mjs --compile-only   (only build the SEF cache)
//        node tests/tools/eracun/validate.mjs --serve   (reads one file path a line from
//             stdin and answers each with its JSON line, the rules loaded once: what the
//             e-invoice simulator runs, instead of a node per document)
// Exit:  0 all valid, 1 at least one invalid, 2 usage or tool error (an unreadable
//        input file gets a line {"file":..,"valid":false,"error":"..."} and exit 2),
//        3 the official rules are not provisioned (nothing was checked).
//
// Environment:
//   ERACUN_TOOLS  directory holding node_modules/{xslt3,saxon-js} and the sef/ cache
//                 (default: <repo>/target/eracun-tools; populate with install.sh)
//   ERACUN_RULES  directory holding the two official XSLT files (default:
//                 $ERACUN_TOOLS/rules; see README.md for where they come from)
//
// Compiled stylesheets (SEF) are cached in $ERACUN_TOOLS/sef/, named after a hash of
// the XSLT text and the SaxonJS version, and (re)compiled on first use.

import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = path.resolve(HERE, '..', '..', '..');
const TOOLS = path.resolve(process.env.ERACUN_TOOLS || path.join(REPO_ROOT, 'target', 'eracun-tools'));
const SEF_DIR = path.join(TOOLS, 'sef');
// The official rules are not in the repository (they are the publishers' files, provisioned
// beside the tool chain): $ERACUN_RULES, else target/eracun-tools/rules.
const RULES = path.resolve(process.env.ERACUN_RULES || path.join(TOOLS, 'rules'));

const STAGES = [
  { stage: 'EN16931', xslt: path.join(RULES, 'EN16931-UBL-validation.xslt') },
  { stage: 'HR-CIUS', xslt: path.join(RULES, 'HR-CIUS-EXT-EN16931-UBL.xslt') },
];

const UBL_ROOTS = new Set([
  'Q{urn:oasis:names:specification:ubl:schema:xsd:Invoice-2}Invoice',
  'Q{urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2}CreditNote',
]);

const INVALIDATING_FLAGS = new Set(['fatal', 'error', '']);

// SVRL locations come as /*:Invoice[namespace-uri()='urn:...'][1]/... (or /Q{urn:...}Invoice[1]/...); shorten them
// to /Invoice[1]/cac:AccountingSupplierParty[1]/... with the usual UBL prefixes.
const NS_PREFIX = {
  'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2': '',
  'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2': '',
  'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2': 'cac:',
  'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2': 'cbc:',
  'urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2': 'ext:',
  'urn:mfin.gov.hr:schema:xsd:HRExtensionAggregateComponents-1': 'hrextac:',
};
function shortLocation(loc) {
  const name = (ns, local) => (ns in NS_PREFIX ? NS_PREFIX[ns] + local : `Q{${ns}}${local}`);
  return loc
    .replace(/\*:([\w.-]+)\[namespace-uri\(\)='([^']*)'\]/g, (_, local, ns) => name(ns, local)) // ISO skeleton
    .replace(/Q\{([^}]*)\}([\w.-]+)/g, (_, ns, local) => name(ns, local)); // SchXslt
}

// XPath 3.1 over the SVRL output: one map per failed assert / successful report.
const SVRL_QUERY = `
  array {
    for $f in //(svrl:failed-assert | svrl:successful-report)
    return map {
      'id': string(($f/@id, '')[1]),
      'flag': lower-case(string(($f/@flag, '')[1])),
      'location': string(($f/@location, '')[1]),
      'text': normalize-space(string-join($f/svrl:text, ' ')),
      'kind': local-name($f)
    }
  }`;
const SVRL_NS = { svrl: 'http://purl.oclc.org/dsdl/svrl' };

class ToolError extends Error {}

function usage(msg) {
  if (msg) process.stderr.write(`validate.mjs: ${msg}\n`);
  process.stderr.write('usage: node tests/tools/eracun/validate.mjs FILE.xml [FILE.xml ...]  ("-" reads stdin)\n'
    + '       node tests/tools/eracun/validate.mjs --compile-only   (just build the SEF cache)\n'
    + '       node tests/tools/eracun/validate.mjs --serve   (file paths on stdin, a JSON line each)\n');
  process.exit(2);
}

function loadSaxon() {
  const req = createRequire(path.join(TOOLS, 'package.json'));
  let saxonPath;
  try {
    saxonPath = req.resolve('saxon-js');
  } catch {
    throw new ToolError(`saxon-js not found under ${TOOLS}/node_modules; run tests/tools/eracun/install.sh (or set ERACUN_TOOLS)`);
  }
  const saxonPkg = JSON.parse(fs.readFileSync(path.join(path.dirname(saxonPath), 'package.json'), 'utf8'));
  let xslt3Path;
  try {
    xslt3Path = req.resolve('xslt3/xslt3.js');
  } catch {
    xslt3Path = null; // only needed to compile; checked lazily
  }
  return { SaxonJS: req(saxonPath), saxonVersion: saxonPkg.version, xslt3Path };
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

function sleep(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

// Returns the path of an up-to-date SEF for `xslt`, compiling it if needed.
// Safe against concurrent callers (parallel cargo tests): one compiles under a
// lock file, the others wait for the result.
function ensureSef(xslt, tools) {
  let text;
  try {
    text = fs.readFileSync(xslt);
  } catch (e) {
    throw new ToolError(`cannot read ${xslt}: ${e.message}`);
  }
  const hash = crypto.createHash('sha256').update(text).update('\0saxon-js@' + tools.saxonVersion).digest('hex').slice(0, 16);
  const stem = path.basename(xslt, '.xslt');
  const sef = path.join(SEF_DIR, `${stem}.${hash}.sef.json`);
  if (fs.existsSync(sef)) return sef;

  fs.mkdirSync(SEF_DIR, { recursive: true });
  const lock = path.join(SEF_DIR, `${stem}.${hash}.lock`);
  const deadline = Date.now() + 10 * 60 * 1000;
  for (;;) {
    let fd;
    try {
      fd = fs.openSync(lock, 'wx');
    } catch (e) {
      if (e.code !== 'EEXIST') throw new ToolError(`cannot create ${lock}: ${e.message}`);
      // Someone else is compiling; wait for the SEF (or for a stale lock to expire).
      if (fs.existsSync(sef)) return sef;
      let age = 0;
      let owner = 0;
      try {
        age = Date.now() - fs.statSync(lock).mtimeMs;
        owner = Number(fs.readFileSync(lock, 'utf8')) || 0;
      } catch { continue; }
      if (age > 5 * 60 * 1000 || (owner && !isAlive(owner))) { try { fs.unlinkSync(lock); } catch {} continue; }
      if (Date.now() > deadline) throw new ToolError(`timed out waiting for ${lock}`);
      sleep(250);
      continue;
    }
    try {
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      if (fs.existsSync(sef)) return sef;
      if (!tools.xslt3Path) throw new ToolError(`xslt3 not found under ${TOOLS}/node_modules; run tests/tools/eracun/install.sh`);
      const tmp = `${sef}.${process.pid}.tmp`;
      const t0 = Date.now();
      const r = spawnSync(process.execPath, [tools.xslt3Path, `-xsl:${xslt}`, `-export:${tmp}`, '-nogo'],
        { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      if (r.status !== 0 || !fs.existsSync(tmp)) {
        try { fs.unlinkSync(tmp); } catch {}
        throw new ToolError(`compiling ${path.basename(xslt)} failed (exit ${r.status}): ${(r.stderr || '') + (r.stdout || '')}`.trim());
      }
      fs.renameSync(tmp, sef);
      process.stderr.write(`validate.mjs: compiled ${path.basename(xslt)} -> ${path.relative(process.cwd(), sef)} in ${((Date.now() - t0) / 1000).toFixed(1)}s\n`);
      // Drop SEFs of older versions of this stylesheet.
      for (const f of fs.readdirSync(SEF_DIR)) {
        if (f.startsWith(stem + '.') && f.endsWith('.sef.json') && f !== path.basename(sef)) {
          try { fs.unlinkSync(path.join(SEF_DIR, f)); } catch {}
        }
      }
      return sef;
    } finally {
      try { fs.unlinkSync(lock); } catch {}
    }
  }
}

function readInput(arg) {
  if (arg === '-') return { name: '-', text: fs.readFileSync(0, 'utf8') };
  try {
    return { name: arg, text: fs.readFileSync(arg, 'utf8') };
  } catch (e) {
    throw new ToolError(`cannot read ${arg}: ${e.message}`);
  }
}

async function validateOne(SaxonJS, stylesheets, arg) {
  const { name, text } = readInput(arg);
  const failures = [];
  let doc;
  try {
    doc = await SaxonJS.getResource({ text, type: 'xml' });
  } catch (e) {
    failures.push({ id: 'XML-PARSE', flag: 'fatal', location: '/', text: `not well-formed XML: ${String(e.message || e).replace(' in undefined', '')}`, stage: 'XML' });
    return { file: name, valid: false, failures };
  }
  const root = SaxonJS.XPath.evaluate('string(/*/node-name() ! ("Q{" || namespace-uri-from-QName(.) || "}" || local-name-from-QName(.)))', doc);
  if (!UBL_ROOTS.has(root)) {
    failures.push({ id: 'UBL-ROOT', flag: 'fatal', location: '/', text: `root element ${root || '(none)'} is not a UBL 2.1 Invoice or CreditNote`, stage: 'XML' });
    return { file: name, valid: false, failures };
  }
  for (const { stage, sef } of stylesheets) {
    let result;
    try {
      result = SaxonJS.transform({ stylesheetInternal: sef, sourceNode: doc, destination: 'document' }, 'sync');
    } catch (e) {
      // A dynamic error raised by the rules themselves (e.g. xs:date('2026-13-01') in
      // HR-BR-40) means the document cannot be validated: report it as a fatal failure.
      failures.push({ id: 'XSLT-DYNAMIC-ERROR', flag: 'fatal', location: '/', text: `${stage} rules raised a dynamic error: ${e.message || e}`, stage });
      continue;
    }
    const found = SaxonJS.XPath.evaluate(SVRL_QUERY, result.principalResult, { namespaceContext: SVRL_NS });
    for (const f of found) {
      failures.push({ id: f.id, flag: f.flag, location: shortLocation(f.location), text: f.text, stage, ...(f.kind === 'successful-report' ? { kind: 'report' } : {}) });
    }
  }
  const valid = !failures.some((f) => INVALIDATING_FLAGS.has(f.flag));
  return { file: name, valid, failures };
}

async function main() {
  const args = process.argv.slice(2);
  const files = [];
  let compileOnly = false;
  let serve = false;
  let optionsDone = false;
  for (const a of args) {
    if (optionsDone || a === '-' || !a.startsWith('-')) files.push(a);
    else if (a === '--') optionsDone = true;
    else if (a === '--compile-only') compileOnly = true;
    else if (a === '--serve') serve = true;
    else if (a === '-h' || a === '--help') usage();
    else usage(`unknown option ${a}`);
  }
  if (files.length === 0 && !compileOnly && !serve) usage('no input file');

  const missing = STAGES.filter(({ xslt }) => !fs.existsSync(xslt)).map(({ xslt }) => xslt);
  if (missing.length > 0) {
    process.stderr.write(`validate.mjs: the official rules are not provisioned (${missing.join(', ')}); see tests/tools/eracun/README.md\n`);
    process.exit(3);
  }
  const tools = loadSaxon();
  const stylesheets = STAGES.map(({ stage, xslt }) => {
    const sefPath = ensureSef(xslt, tools);
    return { stage, sef: compileOnly ? null : JSON.parse(fs.readFileSync(sefPath, 'utf8')) };
  });
  if (compileOnly) return;
  if (serve) {
    const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
    for await (const line of lines) {
      const f = line.trim();
      if (!f) continue;
      let r;
      try {
        r = await validateOne(tools.SaxonJS, stylesheets, f);
      } catch (e) {
        // Whatever goes wrong with one document is that document's answer: the validator
        // stays up for the next.
        const why = e instanceof ToolError ? e.message : String((e && e.stack) || e);
        r = { file: f, valid: false, error: why, failures: [] };
      }
      process.stdout.write(JSON.stringify(r) + '\n');
    }
    return;
  }

  let exit = 0;
  for (const f of files) {
    let r;
    try {
      r = await validateOne(tools.SaxonJS, stylesheets, f);
    } catch (e) {
      if (!(e instanceof ToolError)) throw e;
      process.stderr.write(`validate.mjs: ${e.message}\n`);
      r = { file: f, valid: false, error: e.message, failures: [] };
      exit = 2;
    }
    if (!r.valid && exit === 0) exit = 1;
    process.stdout.write(JSON.stringify(r) + '\n');
  }
  process.exitCode = exit;
}

main().catch((e) => {
  process.stderr.write(`validate.mjs: ${e instanceof ToolError ? e.message : (e && e.stack) || e}\n`);
  process.exit(2);
});
