/* One segment on the page: its row, its text with inline tags and marks, its file's header. */
// -- one segment -----------------------------------------------------------------------
function ranges(text, pattern) {
  const out = [];
  if (!pattern) return out;
  pattern.lastIndex = 0;
  let match;
  while ((match = pattern.exec(text)) !== null) {
    if (!match[0].length) { pattern.lastIndex++; continue; }
    out.push([match.index, match.index + match[0].length]);
  }
  return out;
}

// `text` starts at `offset` of its segment; `hits` are the search's spans in the whole segment.
function marked(parent, text, offset, terms, hits) {
  const t = ranges(text, terms);
  const h = [];
  for (const [a, b] of hits) {
    const x = Math.max(a, offset) - offset;
    const y = Math.min(b, offset + text.length) - offset;
    if (x < y) h.push([x, y]);
  }
  if (!t.length && !h.length) { parent.append(text); return; }
  const cuts = new Set([0, text.length]);
  for (const [a, b] of t.concat(h)) { cuts.add(a); cuts.add(b); }
  const points = Array.from(cuts).sort((a, b) => a - b);
  for (let i = 0; i + 1 < points.length; i++) {
    const a = points[i];
    const b = points[i + 1];
    const piece = text.slice(a, b);
    const inTerm = t.some(([x, y]) => x <= a && b <= y);
    const inHit = h.some(([x, y]) => x <= a && b <= y);
    if (!inTerm && !inHit) { parent.append(piece); continue; }
    const mark = el("mark", (inTerm ? "term" : "") + (inHit ? " hit" : ""), piece);
    if (inTerm) mark.title = "glossary term";
    parent.append(mark);
  }
}

// A segment longer than this shows its start and a button for the rest: the browser lays out
// bidirectional text in time that grows faster than its length (a 1 MB segment froze the page
// for half a minute), and nobody reviews a megabyte at a glance.
const LONG = 20000;

// `search`: the search's matcher (searcher in state.js), or null. Its spans are found in the whole
// text, as the filter finds them, so a match that runs across an inline tag is marked too.
function textCell(cls, text, terms, search) {
  const cell = el("div", "text " + cls);
  const hits = search ? search(text) : [];
  if (text.length <= LONG) {
    fillText(cell, text, terms, hits);
    return cell;
  }
  // Cut between two characters, never inside a surrogate pair.
  const cut = /[\ud800-\udbff]/.test(text[LONG - 1]) ? LONG - 1 : LONG;
  fillText(cell, text.slice(0, cut), terms, hits);
  const later = hits.some(([, end]) => end > cut) ? " (a match is further on)" : "";
  const more = el("button", "more cut", "show all " + plural(text.length, "character", "characters") + later);
  more.type = "button";
  more.addEventListener("click", () => {
    cell.replaceChildren();
    fillText(cell, text, terms, hits);
  });
  cell.append("\u2026 ", more);
  return cell;
}

function fillText(cell, text, terms, hits) {
  let last = 0;
  TAG.lastIndex = 0;
  let match;
  while ((match = TAG.exec(text)) !== null) {
    if (match.index > last) marked(cell, text.slice(last, match.index), last, terms, hits);
    const end = match.index + match[0].length;
    const tag = el("span", "tag", match[0]);
    if (hits.some(([a, b]) => a < end && match.index < b)) tag.classList.add("hit");
    tag.title = "inline markup";
    cell.append(tag);
    last = end;
  }
  if (last < text.length) marked(cell, text.slice(last), last, terms, hits);
}

// Invisible characters a segment holds (bidi controls, zero-width and other format characters,
// control characters besides tab and line breaks): its text shows as it renders, in its own
// isolated box, and this note says what hides in it. Zero-width (non-)joiners are left out:
// Persian, Indic scripts and emoji sequences need them.
const INVISIBLE = /(?![\u200c\u200d\t\n\r])[\p{Cf}\p{Cc}\p{Zl}\p{Zp}]/gu;
const INVISIBLE_NAMES = {
  "061C": "arabic letter mark", "200B": "zero width space", "200E": "left-to-right mark",
  "200F": "right-to-left mark", "202A": "left-to-right embedding", "202B": "right-to-left embedding",
  "202C": "pop directional formatting", "202D": "left-to-right override", "202E": "right-to-left override",
  "2066": "left-to-right isolate", "2067": "right-to-left isolate", "2068": "first strong isolate",
  "2069": "pop directional isolate", "2060": "word joiner", "FEFF": "zero width no-break space",
  "00AD": "soft hyphen",
};

function invisibles(text) {
  const found = new Map();
  for (const [ch] of text.matchAll(INVISIBLE)) found.set(ch, (found.get(ch) || 0) + 1);
  return Array.from(found, ([ch, n]) => {
    const code = codeOf(ch);
    const name = INVISIBLE_NAMES[code];
    return "U+" + code + (name ? " " + name : "") + (n > 1 ? " \u00d7" + n : "");
  });
}

function hiddenNote(record) {
  const parts = [];
  for (const [side, text] of [["the source", record.source], ["the translation", record.translation]]) {
    const found = invisibles(text);
    if (found.length) parts.push(side + ": " + found.join(", "));
  }
  if (!parts.length) return null;
  return note("invisible", "hidden", "invisible characters", parts.join("; ") +
    " (shown as they render; they may reorder or hide text)");
}

function termPattern(record, side) {
  if (!record.terms) return null;
  const words = record.terms.map((pair) => pair[side]).filter((word) => word && word.trim());
  if (!words.length) return null;
  words.sort((a, b) => b.length - a.length);
  return new RegExp(words.map(escapeRegExp).join("|"), "giu");
}

function roleOf(role) {
  const last = role.split(" \u00b7 ").pop();
  const heading = /^heading (\d)$/.exec(last);
  if (heading) return { kind: "heading", level: heading[1], badge: "H" + heading[1] };
  const kinds = [
    [/^list item$/, "list"], [/^table cell$/, "cell"], [/^table header$/, "header"], [/^blockquote$/, "quote"],
    [/^attribute /, "attr"], [/^meta /, "meta"], [/^key /, "key"], [/^column /, "column"],
  ];
  for (const [pattern, kind] of kinds) if (pattern.test(last)) return { kind, badge: role };
  return { kind: "other", badge: role };
}

function note(kind, what, check, message) {
  const item = el("li", "note " + kind);
  const name = el("span", "check", check);
  if (run.about[check]) name.title = run.about[check];
  item.append(el("span", "what", what), name, el("span", "msg", message));
  return item;
}

function row(record, position) {
  const file = files[record.f];
  const node = el("article", "seg st-" + record.status);
  node.tabIndex = -1;
  node.dataset.position = String(position);
  if (record.flags && record.flags.some((flag) => flag.severity === "error")) node.classList.add("err");
  else if (record.flags) node.classList.add("warn");
  const gutter = el("div", "gutter");
  const sid = el("span", "sid", "#" + record.segment);
  sid.title = "segment " + record.segment + (record.unit ? " of unit " + record.unit : "");
  gutter.append(sid);
  if (record.role) {
    const role = roleOf(record.role);
    node.classList.add("k-" + role.kind);
    if (role.level) node.classList.add("l" + role.level);
    const badge = el("span", "role" + (role.kind === "heading" ? " heading" : ""), role.badge);
    badge.title = record.role;
    gutter.append(badge);
  }
  if (record.status !== "translated") {
    const badge = el("span", "badge " + record.status, STATUS_LABEL[record.status] || record.status);
    gutter.append(badge);
  }
  if (record.weight) {
    const weight = el("span", "weight", "\u00d7 " + number.format(record.weight));
    weight.title = "stands for " + plural(record.weight, "occurrence", "occurrences") + " (rows sharing the value)";
    gutter.append(weight);
  }
  if (record.label) gutter.title = record.label;
  const search = state.query ? searcher(state.query) : null;
  const source = textCell("src", record.source, termPattern(record, 0), search);
  if (run.source) source.lang = run.source;
  // A text in a right-to-left language is laid out right to left even where it starts with a
  // Latin word or a number (`iPhone 15 متوفر الآن.`), as its document shows it; a text whose
  // language is not known takes each paragraph's own direction (review.css).
  const sourceDir = run.source_dir === "rtl" ? "rtl" : "auto";
  source.dir = sourceDir;
  const kept = record.status === "untranslated";
  const same = record.status === "as-is";
  const target = textCell("tgt" + (kept ? " kept" : same ? " same" : ""), record.translation,
    kept || same ? null : termPattern(record, 1), search);
  if (kept) target.dataset.note = "source kept";
  if (same) target.dataset.note = "as in the source";
  if (file.lang && !kept && !same) target.lang = file.lang;
  target.dir = kept || same ? sourceDir : file.dir === "rtl" ? "rtl" : "auto";
  if (record.context) {
    // What the model was told besides the text (a key and its comment, a title and a heading):
    // a quiet line under the source, as text.
    const context = el("div", "ctx");
    context.title = "told to the model with the text, never translated";
    context.append(el("span", "what", "context"), el("span", "said", record.context));
    const column = el("div", "src-col");
    column.append(source, context);
    node.append(gutter, column, target);
  } else node.append(gutter, source, target);
  const notes = el("ul", "notes");
  const flags = record.flags || [];
  for (const flag of flags) notes.append(note(flag.severity, flag.severity, flag.check, flag.message));
  for (const reason of record.retry || []) {
    // A reason the last answer failed too is the flag above already.
    if (flags.some((flag) => flag.check === reason.check && flag.message === reason.message)) continue;
    notes.append(note("retry", record.status === "repaired" ? "repaired after" : "retried after", reason.check,
      reason.message));
  }
  const hidden = hiddenNote(record);
  if (hidden) {
    notes.append(hidden);
    node.classList.add("has-hidden");
  }
  if (notes.childElementCount) node.append(notes);
  return node;
}

function fileHead(index) {
  const file = files[index];
  const head = el("div", "file-head");
  head.append(nameNode("path", file.input));
  if (file.output) head.append(el("span", "arrow", "\u2192"), nameNode("out", file.output));
  if (file.lang) {
    const lang = el("span", "lang", file.lang);
    lang.title = file.lang_name || file.lang;
    head.append(lang);
  }
  if (file.error) head.append(nameNode("problem", file.error));
  if (file.warning) head.append(nameNode("problem warn", file.warning));
  const cols = el("div", "cols");
  cols.append(el("span", "", "Segment"), el("span", "", "Source"), el("span", "", "Translation" + (file.lang_name ? " \u00b7 " + file.lang_name : "")));
  return [head, cols];
}
