/* The header, the counts and the side bar: the filters, with their counts. */
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
  label.append(nameNode("dir", dir), nameNode("file", name));
  button.title = plainName(file.input) + (file.output ? " \u2192 " + plainName(file.output) : "");
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
    if (run.about[id]) button.title = id + ": " + run.about[id];
    button.append(dot, el("span", "name check", id), el("span", "count", number.format(c.checks[id] || 0)));
    box.append(button);
  }
}

// -- filtering -------------------------------------------------------------------------

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
  if (state.file >= 0) add("file: " + plainName(files[state.file].input) + (files[state.file].lang ? " (" + files[state.file].lang + ")" : ""), () => { state.file = -1; });
  if (state.status !== "all") add(STATUS_LABEL[state.status], () => { state.status = "all"; });
  if (state.check) add("check: " + state.check, () => { state.check = ""; });
  if (state.query) add("text: \u201c" + state.query + "\u201d", () => { state.query = ""; $("search").value = ""; });
  box.hidden = !box.childElementCount;
}

// -- a person's values kept whose source changed since (files of strings) ---------------------
function outdatedPanel() {
  const list = $("outdated-list");
  let count = 0;
  files.forEach((file) => {
    for (const value of file.outdated || []) {
      const item = el("div", "outdated-item" + (value.format_change ? " format" : ""));
      item.append(el("div", "where", file.output + " \u2014 " + value.key));
      const pairs = el("dl");
      const then = value.old_source === null ? "(not recorded)" : value.old_source;
      pairs.append(el("dt", "", "source then"), el("dd", "", then));
      pairs.append(el("dt", "", "source now"), el("dd", "", value.source));
      pairs.append(el("dt", "", "kept"), el("dd", "", value.value));
      item.append(pairs);
      if (value.format_change) item.append(el("p", "flag error", value.format_change));
      list.append(item);
      count += 1;
    }
  });
  $("outdated").hidden = count === 0;
}
