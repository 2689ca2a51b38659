/* hymt review page. Every string from the run (file names, sources, translations, messages) is
   put in the page as text (textContent, text nodes, attribute values), never parsed as markup.
   The data sit in JSON blocks (page.py describes them): "hymt-run" (the run, its outputs and
   their counts), "hymt-first" (the first page of segments) and the "hymt-segments" blocks (per
   output, its segment records). The page renders one page of segments at a time. */
"use strict";
(() => {
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

  function needsLook(record) {
    return Boolean(record.flags || record.retry) || record.status === "untranslated" ||
      record.status === "retried" || record.status === "repaired";
  }

  function hasCheck(record, check) {
    if (record.retry && record.retry.check === check) return true;
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
  function header() {
    const meta = $("run-meta");
    const facts = [
      ["Engine", run.engine || "?"],
      ["Model", run.model || "none"],
      ["Into", run.targets.join(", ") || "?"],
      ["Outputs", number.format(files.length)],
    ];
    if (run.started) facts.push(["Started", run.started]);
    for (const [key, value] of facts) {
      const item = el("span");
      item.append(key + " ", el("b", "", value));
      meta.append(item);
    }
    if (run.status && run.status !== "ok") meta.append(el("span", "run-state bad", "run " + run.status));
    const notes = [];
    if (run.dry_run) notes.push("A dry run: nothing was translated.");
    const failed = files.filter((file) => file.status === "failed").length;
    if (failed) notes.push(plural(failed, "output", "outputs") + " failed: see the files marked in red.");
    if (notes.length) $("run-note").textContent = notes.join(" ");
    $("run-note").hidden = !notes.length;
    document.title = "hymt review: " + plural(run.totals.segments, "segment", "segments");
  }

  function stats() {
    const box = $("stats");
    box.replaceChildren();
    const c = counts();
    for (const [key, label, help] of STATUS) {
      const n = key === "all" ? c.segments : key === "attention" ? c.attention : (c.statuses[key] || 0);
      const button = el("button", "stat s-" + key + (n ? "" : " zero"));
      button.type = "button";
      button.dataset.status = key;
      button.title = help;
      button.setAttribute("aria-pressed", String(state.status === key));
      button.append(el("span", "n", number.format(n)), el("span", "k", label));
      box.append(button);
    }
  }

  // -- the side bar ----------------------------------------------------------------------
  function fileButton(index) {
    const button = el("button", "pick");
    button.type = "button";
    button.dataset.file = String(index);
    button.setAttribute("aria-pressed", String(state.file === index));
    if (index < 0) {
      const all = state.lang ? files.filter((file) => file.lang === state.lang) : files;
      const total = all.reduce((n, file) => n + file.counts.segments, 0);
      button.append(el("span", "name", "All files"), el("span", "count", number.format(total)));
      return button;
    }
    const file = files[index];
    const [dir, name] = baseName(file.input.startsWith(prefix) ? file.input.slice(prefix.length) : file.input);
    const label = el("span", "name");
    label.append(el("span", "dir", dir), name);
    button.title = file.input + (file.output ? " \u2192 " + file.output : "");
    if (file.status === "failed") button.classList.add("failed");
    button.append(label);
    if (file.lang) button.append(el("span", "lang", file.lang));
    const flagged = file.counts.attention;
    if (file.status === "failed") {
      button.append(el("span", "flagged error", "failed"));
    } else if (file.status !== "ok") {
      button.append(el("span", "count", file.status));
    } else if (flagged) {
      const badge = el("span", "flagged" + (file.counts.errors ? " error" : ""), number.format(flagged));
      badge.title = plural(flagged, "segment needs", "segments need") + " a look";
      button.append(badge);
    } else {
      button.append(el("span", "count", number.format(file.counts.segments)));
    }
    return button;
  }

  function fileList() {
    const box = $("files");
    box.replaceChildren(fileButton(-1));
    const wanted = [];
    files.forEach((file, i) => { if (!state.lang || file.lang === state.lang) wanted.push(i); });
    const shown = allFiles ? wanted.length : Math.min(wanted.length, FILES_SHOWN);
    for (let k = 0; k < shown; k++) box.append(fileButton(wanted[k]));
    if (shown < wanted.length) {
      const more = el("button", "more", "Show all " + number.format(wanted.length) + " files");
      more.type = "button";
      more.addEventListener("click", () => { allFiles = true; fileList(); });
      box.append(more);
    }
  }

  function langList() {
    const box = $("langs");
    box.hidden = $("langs-title").hidden = run.targets.length < 2;
    if (box.hidden) return;
    box.replaceChildren();
    for (const lang of run.targets) {
      const mine = files.filter((file) => file.lang === lang);
      const button = el("button", "pick");
      button.type = "button";
      button.dataset.lang = lang;
      button.setAttribute("aria-pressed", String(state.lang === lang));
      const name = mine.length && mine[0].lang_name ? mine[0].lang_name : lang;
      button.append(el("span", "lang", lang), el("span", "name", name));
      const flagged = mine.reduce((n, file) => n + file.counts.attention, 0);
      const total = mine.reduce((n, file) => n + file.counts.segments, 0);
      if (flagged) {
        const errors = mine.some((file) => file.counts.errors);
        button.append(el("span", "flagged" + (errors ? " error" : ""), number.format(flagged)));
      } else button.append(el("span", "count", number.format(total)));
      box.append(button);
    }
  }

  function checkList() {
    const box = $("checks");
    box.replaceChildren();
    const c = counts();
    const ids = Object.keys(run.checks).sort();
    if (!ids.length) box.append(el("p", "keys", "No check fired."));
    for (const id of ids) {
      const button = el("button", "pick");
      button.type = "button";
      button.dataset.check = id;
      button.setAttribute("aria-pressed", String(state.check === id));
      const severity = run.checks[id];
      const dot = el("span", "dot " + severity);
      dot.title = severity === "info" ? "caused retries only" : severity;
      button.append(dot, el("span", "name check", id), el("span", "count", number.format(c.checks[id] || 0)));
      box.append(button);
    }
  }

  // -- filtering -------------------------------------------------------------------------
  function lower(record, key) {
    const cached = "_" + key;
    if (record[cached] === undefined) record[cached] = record[key].toLowerCase();
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
    const query = state.query.toLowerCase();
    for (let i = from; i < to; i++) {
      const record = segments[i];
      if (state.lang && files[record.f].lang !== state.lang) continue;
      if (state.status === "attention") {
        if (!needsLook(record)) continue;
      } else if (state.status !== "all" && record.status !== state.status) continue;
      if (state.check && !hasCheck(record, state.check)) continue;
      if (query && !lower(record, "source").includes(query) && !lower(record, "translation").includes(query)) continue;
      view.push(i);
    }
  }

  function update(keepPage) {
    filter();
    if (!keepPage) state.page = 0;
    stats();
    checkList();
    langList();
    fileList();
    chips();
    render();
  }

  function chips() {
    const box = $("filters");
    box.replaceChildren();
    const add = (label, clear) => {
      const chip = el("button", "chip", label);
      chip.type = "button";
      chip.title = "Remove this filter";
      chip.addEventListener("click", () => { clear(); update(false); });
      box.append(chip);
    };
    if (state.lang) add("language: " + state.lang, () => { state.lang = ""; });
    if (state.file >= 0) add("file: " + files[state.file].input + (files[state.file].lang ? " (" + files[state.file].lang + ")" : ""), () => { state.file = -1; });
    if (state.status !== "all") add(STATUS_LABEL[state.status], () => { state.status = "all"; });
    if (state.check) add("check: " + state.check, () => { state.check = ""; });
    if (state.query) add("text: \u201c" + state.query + "\u201d", () => { state.query = ""; $("search").value = ""; });
    box.hidden = !box.childElementCount;
  }

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

  function marked(parent, text, terms, hits) {
    const t = ranges(text, terms);
    const h = ranges(text, hits);
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

  function textCell(cls, text, terms, hits) {
    const cell = el("div", "text " + cls);
    let last = 0;
    TAG.lastIndex = 0;
    let match;
    while ((match = TAG.exec(text)) !== null) {
      if (match.index > last) marked(cell, text.slice(last, match.index), terms, hits);
      const tag = el("span", "tag", match[0]);
      tag.title = "inline markup";
      cell.append(tag);
      last = match.index + match[0].length;
    }
    if (last < text.length) marked(cell, text.slice(last), terms, hits);
    return cell;
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
    item.append(el("span", "what", what), el("span", "check", check), el("span", "msg", message));
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
    const hits = state.query ? new RegExp(escapeRegExp(state.query), "giu") : null;
    const source = textCell("src", record.source, termPattern(record, 0), hits);
    if (run.source) source.lang = run.source;
    source.dir = "auto";
    const kept = record.status === "untranslated";
    const same = record.status === "as-is";
    const target = textCell("tgt" + (kept ? " kept" : same ? " same" : ""), record.translation,
      kept || same ? null : termPattern(record, 1), hits);
    if (kept) target.dataset.note = "source kept";
    if (same) target.dataset.note = "as in the source";
    if (file.lang && !kept && !same) target.lang = file.lang;
    target.dir = file.dir === "rtl" && !kept && !same ? "rtl" : "auto";
    node.append(gutter, source, target);
    const notes = el("ul", "notes");
    for (const flag of record.flags || []) notes.append(note(flag.severity, flag.severity, flag.check, flag.message));
    const retry = record.retry;
    if (retry && !(record.flags || []).some((flag) => flag.check === retry.check && flag.message === retry.message)) {
      notes.append(note("retry", record.status === "repaired" ? "repaired after" : "retried after", retry.check,
        retry.message));
    }
    if (notes.childElementCount) node.append(notes);
    return node;
  }

  function fileHead(index) {
    const file = files[index];
    const head = el("div", "file-head");
    head.append(el("span", "path", file.input));
    if (file.output) head.append(el("span", "arrow", "\u2192"), el("span", "out", file.output));
    if (file.lang) {
      const lang = el("span", "lang", file.lang);
      lang.title = file.lang_name || file.lang;
      head.append(lang);
    }
    if (file.error) head.append(el("span", "problem", file.error));
    if (file.warning) head.append(el("span", "problem warn", file.warning));
    const cols = el("div", "cols");
    cols.append(el("span", "", "Segment"), el("span", "", "Source"), el("span", "", "Translation" + (file.lang_name ? " \u00b7 " + file.lang_name : "")));
    return [head, cols];
  }

  // -- the list --------------------------------------------------------------------------
  function pages() {
    return Math.max(1, Math.ceil(view.length / PAGE));
  }

  function render() {
    const list = $("list");
    list.replaceChildren();
    const waiting = !loaded && !unfiltered();
    const count = loaded ? view.length : run.totals.segments;
    const total = Math.max(1, Math.ceil(count / PAGE));
    if (state.page >= total) state.page = total - 1;
    const first = state.page * PAGE;
    const last = Math.min(view.length, first + PAGE);
    const part = document.createDocumentFragment();
    let current = -1;
    let previous = null;
    for (let k = first; k < last; k++) {
      const record = segments[view[k]];
      if (record.f !== current) {
        if (previous) previous.classList.add("last");
        part.append(...fileHead(record.f));
        current = record.f;
      }
      previous = row(record, k);
      part.append(previous);
    }
    if (waiting) part.append(el("p", "empty", "Reading the segments\u2026"));
    else if (!view.length) {
      if (state.file >= 0 && !files[state.file].counts.segments) part.append(...fileHead(state.file));
      part.append(el("p", "empty", "No segment matches these filters."));
    }
    list.append(part);
    const summary = waiting ? "" : view.length
      ? number.format(first + 1) + "\u2013" + number.format(last) + " of " + plural(count, "segment", "segments")
      : "0 segments";
    $("summary").textContent = summary;
    for (const id of ["prev", "prev2"]) $(id).disabled = !loaded || state.page === 0;
    for (const id of ["next", "next2"]) $(id).disabled = !loaded || state.page >= total - 1;
    $("page-of").textContent = "page " + number.format(state.page + 1) + " of " + number.format(total);
  }

  function turn(delta, focusLast) {
    if (!loaded) return false;
    const target = Math.min(pages() - 1, Math.max(0, state.page + delta));
    if (target === state.page) return false;
    state.page = target;
    render();
    const rows = document.querySelectorAll("#list .seg");
    if (rows.length) (focusLast ? rows[rows.length - 1] : rows[0]).focus();
    else window.scrollTo(0, 0);
    return true;
  }

  function move(step) {
    const rows = Array.from(document.querySelectorAll("#list .seg"));
    if (!rows.length) return;
    const at = rows.indexOf(document.activeElement);
    const next = at < 0 ? 0 : at + step;
    if (next >= rows.length) { turn(1, false); return; }
    if (next < 0) { turn(-1, true); return; }
    rows[next].focus();
  }

  // -- events ----------------------------------------------------------------------------
  function wire() {
    $("stats").addEventListener("click", (event) => {
      const button = event.target.closest("button[data-status]");
      if (!button) return;
      state.status = state.status === button.dataset.status ? "all" : button.dataset.status;
      update(false);
    });
    $("langs").addEventListener("click", (event) => {
      const button = event.target.closest("button[data-lang]");
      if (!button) return;
      state.lang = state.lang === button.dataset.lang ? "" : button.dataset.lang;
      if (state.file >= 0 && files[state.file].lang !== state.lang && state.lang) state.file = -1;
      update(false);
    });
    $("files").addEventListener("click", (event) => {
      const button = event.target.closest("button[data-file]");
      if (!button) return;
      const index = Number(button.dataset.file);
      state.file = state.file === index ? -1 : index;
      update(false);
    });
    $("checks").addEventListener("click", (event) => {
      const button = event.target.closest("button[data-check]");
      if (!button) return;
      state.check = state.check === button.dataset.check ? "" : button.dataset.check;
      update(false);
    });
    $("search").addEventListener("input", (event) => {
      window.clearTimeout(searchTimer);
      const value = event.target.value;
      searchTimer = window.setTimeout(() => { state.query = value.trim(); update(false); }, 150);
    });
    for (const [id, delta] of [["prev", -1], ["prev2", -1], ["next", 1], ["next2", 1]]) {
      $(id).addEventListener("click", () => turn(delta, false));
    }
    document.addEventListener("keydown", (event) => {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      const typing = event.target instanceof HTMLInputElement;
      if (event.key === "Escape" && typing) {
        if (event.target.value) {
          event.target.value = "";
          state.query = "";
          update(false);
        } else event.target.blur();
        return;
      }
      if (typing) return;
      const keys = {
        "/": () => $("search").focus(),
        "j": () => move(1),
        "k": () => move(-1),
        "]": () => turn(1, false),
        "[": () => turn(-1, false),
      };
      const action = keys[event.key];
      if (action) {
        event.preventDefault();
        action();
      }
    });
  }

  function load() {
    performance.mark("hymt-segments-read");
    const perOutput = [];
    for (const block of document.querySelectorAll("script.hymt-segments")) {
      for (const records of JSON.parse(block.textContent)) perOutput.push(records);
    }
    [segments, starts] = flatten(perOutput);
    performance.mark("hymt-segments-parsed");
    loaded = true;
    const focused = document.activeElement && document.activeElement.dataset
      ? document.activeElement.dataset.position : undefined;
    update(true);
    if (focused !== undefined) {
      const again = document.querySelector('#list .seg[data-position="' + Number(focused) + '"]');
      if (again) again.focus();
    }
    performance.mark("hymt-segments-shown");
  }

  // The file headers stick below the tool bar, whatever its height.
  const toolbar = document.querySelector(".toolbar");
  new ResizeObserver(() => {
    document.documentElement.style.setProperty("--toolbar-height", toolbar.offsetHeight + "px");
  }).observe(toolbar);

  header();
  stats();
  langList();
  fileList();
  checkList();
  wire();
  [segments, starts] = flatten(JSON.parse($("hymt-first").textContent));
  filter();
  render();
  performance.mark("hymt-first-page-shown");
  // The segments' block comes after this script: the header and the counts are painted while
  // the browser reads it, and the segments are shown once it is read.
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", load);
  else load();
})();
