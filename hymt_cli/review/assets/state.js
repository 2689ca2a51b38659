/* The review page's state, its data and its filters. Every string from the run (file names,
   sources, translations, messages) is put in the page as text (textContent, text nodes,
   attribute values), never parsed as markup. The data sit in JSON blocks (page.py describes
   them): "hymt-run" (the run, its outputs and their counts), "hymt-first" (the first page of
   segments) and the "hymt-segments" blocks (per output, its segment records).
   page.py joins the assets in this order into one script: state.js, segment.js, panels.js, app.js. */
const PAGE = 100;
const FILES_SHOWN = 200;
const STATUS = [
  ["all", "All segments", "every segment"],
  ["attention", "Needs a look", "flagged, retried, repaired or untranslated"],
  ["untranslated", "Untranslated", "kept in the source language"],
  ["retried", "Retried", "accepted on the second try"],
  ["repaired", "Repaired", "tags kept by translating the text between them one by one"],
  ["memory", "From memory", "answered by the translation memory"],
  ["translated", "Translated", "accepted at once"],
  ["as-is", "As is", "nothing to translate (no letters)"],
];
const STATUS_LABEL = Object.fromEntries(STATUS.map(([key, label]) => [key, label]));
const TAG = /<\/?s\d+\/?>/g;

const $ = (id) => document.getElementById(id);
const number = new Intl.NumberFormat("en-US");
const run = JSON.parse($("hymt-run").textContent);
const files = run.files;
const state = { file: -1, lang: "", status: "all", check: "", query: "", page: 0 };
const prefix = commonFolder(files.map((file) => file.input));
let segments = []; // every record, output after output; record.f is its output's index
let starts = []; // index of each output's first record in `segments`
// Until the whole block of segments is read, `segments` holds the run's first page only (the
// "hymt-first" block, before this script): shown at once, however big the run.
let loaded = false;
let view = []; // indices of the records that pass the filters
let searchTimer = 0;
let allFiles = false; // the side bar lists every file, not the first FILES_SHOWN

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function plural(n, one, many) {
  return number.format(n) + " " + (n === 1 ? one : many);
}

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

// -- names that cannot pass for others ------------------------------------------------------
// Characters that draw nothing or reorder what follows: bidi controls, zero-width and other
// format characters (Cf), control characters, line and paragraph separators. In a file name
// they make it look like another ("invoice\u202Efdp.exe" shows as "invoiceexe.pdf"), so a name
// shows each as its escape, marked. (A segment's text keeps them, in its own isolated box, and
// says that it holds them: hiddenNote in segment.js.)
const HIDDEN = /[\p{Cf}\p{Cc}\p{Zl}\p{Zp}]/gu;

function codeOf(ch) {
  return ch.codePointAt(0).toString(16).toUpperCase().padStart(4, "0");
}

function escapeOf(ch) {
  const code = codeOf(ch);
  return code.length > 4 ? "\\u{" + code + "}" : "\\u" + code;
}

// A name as plain text (a tooltip, a chip): each hidden character as its escape.
function plainName(text) {
  return text.replace(HIDDEN, escapeOf);
}

// A name as a node: each hidden character as its escape, marked.
function nameNode(cls, text) {
  const node = el("span", cls);
  let last = 0;
  for (const match of text.matchAll(HIDDEN)) {
    if (match.index > last) node.append(text.slice(last, match.index));
    const mark = el("span", "hidden-char", escapeOf(match[0]));
    mark.title = "U+" + codeOf(match[0]) + ": an invisible character in the name";
    node.append(mark);
    last = match.index + match[0].length;
  }
  if (last < text.length) node.append(text.slice(last));
  return node;
}

// -- one matching rule for the search: the filter and the highlight ------------------------
// A text matches the query when its folded form contains the query's. Folding takes each
// character on its own (so a match never depends on its neighbours): upper- then lower-cased
// (ß and ẞ read "ss", ς and Σ read σ, ı and I read i), İ read i, and invisible format characters
// (a zero-width space inside a word, bidi controls) left out. The filter and the highlight both
// use `folded`, so every segment shown has its match highlighted and every highlight is shown.
const FOLDS = new Map();
const ASCII = /^[\x00-\x7f]*$/;
const FORMAT_CHAR = /^\p{Cf}$/u;

function foldChar(ch) {
  let folded = FOLDS.get(ch);
  if (folded === undefined) {
    folded = FORMAT_CHAR.test(ch) ? "" : ch.toUpperCase().toLowerCase();
    if (folded === "i\u0307") folded = "i"; // İ (Turkish capital dotted I)
    FOLDS.set(ch, folded);
  }
  return folded;
}

// The folded text; with `map`, also where each folded unit comes from: [folded, from, to] with
// the source span [from[k], to[k]) of folded unit k.
function folded(text, map) {
  if (ASCII.test(text)) {
    const lower = text.toLowerCase();
    if (!map) return lower;
    const at = Array.from(lower, (_, i) => i);
    return [lower, at, at.map((i) => i + 1)];
  }
  const pieces = [];
  const from = [];
  const to = [];
  let i = 0;
  for (const ch of text) {
    const f = foldChar(ch);
    pieces.push(f);
    if (map) for (let k = 0; k < f.length; k++) { from.push(i); to.push(i + ch.length); }
    i += ch.length;
  }
  return map ? [pieces.join(""), from, to] : pieces.join("");
}

// The search's matches in `text`, as [start, end) spans of `text` (null: no search).
function searcher(query) {
  const wanted = folded(query, false);
  return (text) => {
    const out = [];
    if (!wanted) return out;
    const [f, from, to] = folded(text, true);
    for (let at = f.indexOf(wanted); at >= 0; at = f.indexOf(wanted, at + wanted.length)) {
      out.push([from[at], to[at + wanted.length - 1]]);
    }
    return out;
  };
}

function needsLook(record) {
  return Boolean(record.flags || record.retry) || record.status === "untranslated" ||
    record.status === "retried" || record.status === "repaired";
}

function hasCheck(record, check) {
  if (record.retry && record.retry.some((reason) => reason.check === check)) return true;
  return Boolean(record.flags && record.flags.some((flag) => flag.check === check));
}

function counts() {
  if (state.file >= 0) return files[state.file].counts;
  if (!state.lang) return run.totals;
  const sum = { segments: 0, attention: 0, statuses: {}, checks: {}, errors: 0, warnings: 0 };
  for (const file of files) {
    if (file.lang !== state.lang) continue;
    const c = file.counts;
    sum.segments += c.segments;
    sum.attention += c.attention;
    sum.errors += c.errors;
    sum.warnings += c.warnings;
    for (const [key, n] of Object.entries(c.statuses)) sum.statuses[key] = (sum.statuses[key] || 0) + n;
    for (const [key, n] of Object.entries(c.checks)) sum.checks[key] = (sum.checks[key] || 0) + n;
  }
  return sum;
}

function baseName(path) {
  const cut = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
  return [path.slice(0, cut + 1), path.slice(cut + 1)];
}

// The folder every input is in ("samples/"), left out of the side bar's names.
function commonFolder(paths) {
  if (paths.length < 2) return "";
  let common = baseName(paths[0])[0];
  for (const path of paths) {
    while (common && !path.startsWith(common)) common = baseName(common.slice(0, -1))[0];
  }
  return common;
}

// -- the header ------------------------------------------------------------------------

function foldedOf(record, key) {
  const cached = "_" + key;
  if (record[cached] === undefined) record[cached] = folded(record[key], false);
  return record[cached];
}

function unfiltered() {
  return state.file < 0 && !state.lang && state.status === "all" && !state.check && !state.query && !state.page;
}

function flatten(perOutput) {
  const all = [];
  const at = [];
  perOutput.forEach((records, f) => {
    at.push(all.length);
    for (const record of records) {
      record.f = f;
      all.push(record);
    }
  });
  at.push(all.length);
  return [all, at];
}

function filter() {
  view = [];
  if (!loaded) {
    if (unfiltered()) view = segments.map((_, i) => i);
    return;
  }
  const from = state.file < 0 ? 0 : starts[state.file];
  const to = state.file < 0 ? segments.length : starts[state.file + 1];
  const query = state.query ? folded(state.query, false) : "";
  for (let i = from; i < to; i++) {
    const record = segments[i];
    if (state.lang && files[record.f].lang !== state.lang) continue;
    if (state.status === "attention") {
      if (!needsLook(record)) continue;
    } else if (state.status !== "all" && record.status !== state.status) continue;
    if (state.check && !hasCheck(record, state.check)) continue;
    if (state.query && !(query && (foldedOf(record, "source").includes(query) ||
      foldedOf(record, "translation").includes(query)))) continue;
    view.push(i);
  }
}
