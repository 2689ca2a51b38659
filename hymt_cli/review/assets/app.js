/* The list, one page of segments at a time; the events; reading the data and starting. */
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
outdatedPanel();
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
