// The console: dead letters (counts, filters, pages), one letter (problems linked to the editor, headers,
// source record), re-drives (one, fixed or unchanged; bulk, unchanged) and what became of them, and the
// live view of the cluster. The editor and previews are the playground's (playground.js).
const consoleState = { cursor: null, letters: [], open: null, config: null, deadLetters: -1, followTimer: null,
  listSequence: 0 };
window.consoleState = consoleState;

function filterQuery() {
  const q = new URLSearchParams();
  const put = (name, id) => { const v = $(id).value.trim(); if (v !== "") q.set(name, v); };
  put("code", "f-code"); put("stage", "f-stage"); put("topic", "f-topic"); put("partition", "f-partition");
  put("q", "f-q");
  if ($("f-key").value !== "") q.set("key", $("f-key").value);
  const ms = id => $(id).value ? String(new Date($(id).value).getTime()) : "";
  if (ms("f-from")) q.set("from_ms", ms("f-from"));
  if (ms("f-to")) q.set("to_ms", ms("f-to"));
  return q;
}
function when(ms) { return ms === null || ms === undefined ? "no time" : new Date(ms).toLocaleString(); }

async function getJSON(url) {
  const answer = await apiFetch(url);
  if (!answer.ok) throw new Error("HTTP " + answer.status + ": " + (await answer.text()));
  return answer.json();
}

// Loads the first page (reset) or the next one, and the counts.
async function loadLetters(reset) {
  const q = filterQuery();
  q.set("limit", "50");
  if (!reset && consoleState.cursor !== null) q.set("cursor", String(consoleState.cursor));
  const sent = q.toString();
  // Only the answer to the latest request is shown: an older one arriving late is dropped.
  const mine = ++consoleState.listSequence;
  let page;
  try { page = await getJSON("/api/dead-letters?" + sent); }
  catch (e) { if (mine === consoleState.listSequence) $("summary").textContent = String(e); return; }
  if (mine !== consoleState.listSequence) return;
  if (reset) { consoleState.letters = []; $("letters").textContent = ""; }
  consoleState.cursor = page.cursor;
  consoleState.letters.push(...page.letters);
  renderCounts(page);
  page.letters.forEach(l => $("letters").append(letterItem(l)));
  $("more").hidden = page.cursor === null;
  $("summary").textContent = page.matching + " matching of " + page.total + " dead letter(s)";
  if (page.search) {
    // The text search reads values back from Kafka: its progress, and the first page again until it is done.
    const s = page.search;
    $("summary").textContent += s.done ? (s.error ? " (text search stopped: " + s.error + ")" : "")
      : " so far (text search: " + s.scanned + " of " + s.total + " letters read)";
    if (!s.done && reset) setTimeout(() => { if (mine === consoleState.listSequence) loadLetters(true); }, 1000);
  }
  $("summary").dataset.matching = page.matching;
  $("bulk-redrive").disabled = page.matching === 0;
  $("bulk-redrive").textContent = "Re-drive all " + page.matching + " matching, unchanged";
  window.renderedLetters = sent;  // what the list shows answers this query (tests wait for it)
}

function renderCounts(page) {
  const box = $("counts"), code = $("f-code").value, stage = $("f-stage").value;
  box.textContent = "";
  const codes = Object.entries(page.counts).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  for (const [name, n] of codes) {
    const chip = el("span", { class: "count" + (name === code ? " active" : ""), "data-code": name, "data-count": n,
      title: "letters with " + name }, el("b", {}, name), " " + n);
    chip.addEventListener("click", () => { $("f-code").value = name === code ? "" : name; loadLetters(true); });
    box.append(chip);
  }
  for (const [name, n] of Object.entries(page.stage_counts).sort()) {
    const chip = el("span", { class: "count stage" + (name === stage ? " active" : ""), "data-stage": name, "data-count": n },
      "stage " + (name === "none" ? "not pushgate's" : name) + " " + n);
    chip.addEventListener("click", () => { $("f-stage").value = name === stage ? "" : name; loadLetters(true); });
    box.append(chip);
  }
  const select = $("f-code");
  const known = new Set([...select.options].map(o => o.value));
  for (const [name] of codes) if (!known.has(name)) select.append(el("option", { value: name }, name));
}

function letterItem(l) {
  const first = l.errors[0];
  const li = el("li", { class: l.written_by_pushgate ? "" : "foreign", "data-partition": l.partition, "data-offset": l.offset },
    el("div", {}, el("span", { class: "where" }, "p" + l.partition + " @" + l.offset), " · ", when(l.timestamp_ms),
      l.key !== null ? [" · key ", el("b", {}, l.key)] : null,
      l.stage ? el("span", { class: "tag" }, l.stage + (l.format ? " " + l.format : "")) : el("span", { class: "tag" }, "not written by pushgate"),
      l.binary ? el("span", { class: "tag" }, "binary value") : null,
      l.value_null ? el("span", { class: "tag" }, "null value (tombstone)") : null,
      l.value_cut ? el("span", { class: "tag" }, l.value_bytes + " bytes") : null,
      l.redriven ? el("span", { class: "tag redriven" }, "re-driven" + (l.redriven > 1 ? " ×" + l.redriven : "")) : null),
    el("div", { class: "codes" }, [...new Set(l.errors.map(e => e.code))].map(c => el("span", {}, c))),
    first ? el("div", { class: "first" }, (first.path || '""') + ": " + first.message) : null);
  li.addEventListener("click", () => openLetter(l.partition, l.offset));
  return li;
}

// Opens a letter: its problems, headers and source, its payload in the editor, its re-drives.
async function openLetter(partition, offset) {
  let answer;
  try { answer = await getJSON("/api/dead-letters/" + partition + "/" + offset); }
  catch (e) { $("redrive-status").textContent = String(e); return; }
  const l = answer.letter;
  consoleState.open = l;
  document.querySelectorAll("#letters li.selected").forEach(li => li.classList.remove("selected"));
  const item = document.querySelector('#letters li[data-partition="' + partition + '"][data-offset="' + offset + '"]');
  if (item) item.classList.add("selected");
  $("letter-empty").hidden = true;
  $("letter").hidden = false;
  $("letter").dataset.partition = partition;
  $("letter").dataset.offset = offset;
  $("letter-title").textContent = "Dead letter p" + partition + " @" + offset;
  $("letter-facts").textContent = [
    l.stage ? "stage " + l.stage + (l.format ? ", format " + l.format : "") : "not written by pushgate (no pushgate-errors)",
    when(l.timestamp_ms), "key " + (l.key === null ? "null" : JSON.stringify(l.key)),
    l.value_null ? "null value (a tombstone: re-driven unchanged, it is a tombstone again)" : l.value_bytes + " bytes",
    l.source ? "from " + l.source.topic + "[" + l.source.partition + "] @" + l.source.offset : "source unknown",
    l.binary ? "binary value (shown with U+FFFD)" : null].filter(x => x).join(" · ");
  const problems = $("letter-problems");
  problems.textContent = "";
  if (l.errors.length) problems.append(el("h4", {}, "problems"), problemList(l.errors, "problem"));
  $("letter-headers").textContent = "";
  $("letter-headers").append(...l.headers.map(h => el("tr", {}, el("td", {}, h[0]), el("td", {}, h[1] === null ? "null" : h[1]))));
  // The editor: the payload, the source record and the worker's options; the playground translates it.
  editor.value = l.binary ? l.value : (l.value.trim().startsWith("{") ? reindent(l.value) : l.value);
  consoleState.openedText = editor.value;
  // Bytes that are not UTF-8 cannot go through the editor unchanged: such a letter is re-driven as it is.
  $("redrive-edited").disabled = l.binary;
  $("redrive-edited").title = l.binary ? "the value is not UTF-8 text: re-drive it unchanged" : "";
  const src = l.source || { topic: consoleState.config ? consoleState.config.input_topic : "push.unified", partition: 0, offset: 0 };
  $("topic").value = src.topic; $("partition").value = src.partition; $("offset").value = src.offset;
  $("key").value = l.key === null ? "" : l.key;
  $("timestamp").value = l.timestamp_ms === null ? "" : l.timestamp_ms;
  $("headers").value = l.headers.filter(h => !/^(pushgate-|__connect\.errors\.)/i.test(h[0]))
    .map(h => h[0] + "=" + (h[1] === null ? "" : h[1])).join("\n");
  highlight = null; $("highlight-info").textContent = "";
  clearTimeout(timer); translate(); renderBackdrop();
  $("redrive-status").textContent = "";
  renderFollow(answer.redrives);
  watchFollow();
  window.openedLetter = partition + "/" + offset;
}


async function redrive(letters) {
  const answer = await apiFetch("/api/redrive", { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ letters }) });
  const text = await answer.text();
  if (!answer.ok) throw new Error("HTTP " + answer.status + ": " + text);
  return JSON.parse(text);
}

async function redriveOpen(withEditor) {
  const l = consoleState.open;
  if (!l) return;
  const item = { partition: l.partition, offset: l.offset };
  // The editor as the letter was opened (only indented) is the letter unchanged, not a fix.
  if (withEditor && editor.value !== consoleState.openedText) item.payload = editor.value;
  $("redrive-status").textContent = "writing…";
  try {
    const answer = await redrive([item]);
    const r = answer.records[0];
    $("redrive-status").textContent = (r.new ? "written to " : "already re-driven with this payload: ") +
      consoleState.config.input_topic + "[" + r.partition + "] @" + r.offset;
    $("redrive-status").dataset.source = r.source;
  } catch (e) { $("redrive-status").textContent = String(e); return; }
  loadLetters(true);
  watchFollow();
}

// Follow-through: polls the open letter's re-drives until each has an outcome (at most a minute).
function watchFollow() {
  clearTimeout(consoleState.followTimer);
  const l = consoleState.open;
  if (!l) return;
  const started = Date.now();
  const tick = async () => {
    if (consoleState.open !== l) return;
    let answer;
    try { answer = await getJSON("/api/redrives?partition=" + l.partition + "&offset=" + l.offset); }
    catch (e) { answer = null; }
    const mine = answer && answer.redrives;
    if (mine && consoleState.open === l) renderFollow(mine);
    const waiting = !mine || mine.some(r => r.outcomes.length === 0);
    if (waiting && Date.now() - started < 60000) consoleState.followTimer = setTimeout(tick, 1000);
  };
  consoleState.followTimer = setTimeout(tick, 500);
}

function renderFollow(redrives) {
  const box = $("follow");
  box.textContent = "";
  if (!redrives.length) return;
  box.append(el("h4", {}, "re-drives and what became of them"));
  for (const r of redrives) {
    const div = el("div", { class: "redrive", "data-source": r.source },
      el("div", { class: "head" }, (r.unchanged ? "unchanged" : "fixed") + " → " + r.source));
    if (r.outcomes.length === 0) div.append(el("div", { class: "pending" }, "waiting for the worker…"));
    for (const o of r.outcomes) {
      const row = el("div", { class: "outcome " + (o.dead_letter ? "dead" : "output"), "data-format": o.format || "dead-letter",
        "data-topic": o.topic });
      if (o.dead_letter) {
        row.append(el("span", { class: "badge", style: { background: "#b3261e" } }, "dead letter again"),
          o.topic + "[" + o.partition + "] @" + o.offset + " (stage " + o.stage + ")",
          problemList(o.errors || [], "problem"));
      } else {
        row.append(el("span", { class: "badge" }, o.format), o.topic + "[" + o.partition + "] @" + o.offset);
        if (o.value === undefined) row.append(el("div", { class: "muted" }, "(value no longer kept: only the newest outputs' are)"));
        else {
          try { row.append(el("div", { class: "preview" }, drawPreview(o.format, JSON.parse(o.value)))); }
          catch (e) { row.append(el("pre", { class: "value" }, o.value)); }
        }
      }
      div.append(row);
    }
    box.append(div);
  }
}

// Bulk: every letter matching the filter, unchanged, 25 per request, with a progress bar.
async function bulkRedrive() {
  const q = filterQuery();
  let ids;
  try { ids = (await getJSON("/api/dead-letter-ids?" + q.toString())).ids; }
  catch (e) { $("bulk-count").textContent = String(e); return; }
  if (!ids.length) return;
  if (!window.consoleConfirmed && !confirm("Re-drive " + ids.length + " dead letter(s) unchanged into " +
      consoleState.config.input_topic + "?")) return;
  const bar = $("bulk-progress");
  bar.hidden = false; bar.max = ids.length; bar.value = 0;
  $("bulk-redrive").disabled = true;
  let written = 0, already = 0;
  const sources = [];
  // Only the re-drives from here on are followed (the list of every re-drive grows with each bulk).
  let before = 0;
  try { before = (await getJSON("/api/redrives?from=" + Number.MAX_SAFE_INTEGER)).total; } catch (e) { before = 0; }
  try {
    for (let i = 0; i < ids.length; i += 25) {
      const answer = await redrive(ids.slice(i, i + 25).map(([partition, offset]) => ({ partition, offset })));
      written += answer.written;
      already += answer.records.length - answer.written;
      answer.records.forEach(r => sources.push(r.source));
      bar.value = Math.min(ids.length, i + 25);
      $("bulk-count").textContent = bar.value + " / " + ids.length + ": " + written + " written, " + already + " already re-driven";
    }
  } catch (e) { $("bulk-count").textContent += " — stopped: " + e; }
  $("bulk-redrive").disabled = false;
  $("bulk-count").dataset.done = "true";
  loadLetters(true);  // the letters now carry their "re-driven" mark
  followBulk(new Set(sources), before);
}

// What became of a bulk re-drive: how many were translated, dead letters again, or still waiting.
function followBulk(sources, from) {
  const started = Date.now();
  const tick = async () => {
    let answer;
    try { answer = await getJSON("/api/redrives?from=" + from); } catch (e) { return; }
    let translated = 0, dead = 0, waiting = 0;
    for (const r of answer.redrives) {
      if (!sources.has(r.source)) continue;
      if (r.outcomes.length === 0) waiting++;
      else if (r.outcomes.some(o => !o.dead_letter)) translated++;
      else dead++;
    }
    const line = $("bulk-follow") || el("div", { id: "bulk-follow", class: "muted" });
    line.textContent = "of " + sources.size + " re-driven: " + translated + " translated, " + dead + " dead letters again, " + waiting + " waiting";
    line.dataset.translated = translated; line.dataset.dead = dead; line.dataset.waiting = waiting;
    $("bulk").after(line);
    if (waiting && Date.now() - started < 120000) setTimeout(tick, 1000);
  };
  tick();
}

// Live: rates and lag, every two seconds; a banner while the cluster does not answer.
async function refreshLive() {
  let live;
  try { live = await getJSON("/api/live"); }
  catch (e) { live = { connected: false, error: "the console does not answer: " + e, topics: [], lag: [] }; }
  const banner = $("banner");
  banner.hidden = live.connected;
  if (!live.connected) banner.textContent = "The cluster does not answer: " + live.error +
    (live.last_seen_ms ? " (last answer " + when(live.last_seen_ms) + ")" : "") + ". Showing what was read before; retrying.";
  if (live.connected) {
    const rows = live.topics.map(t => el("tr", { class: t.role, "data-topic": t.topic },
      el("td", {}, t.topic), el("td", {}, t.role), el("td", {}, String(t.end)), el("td", {}, t.per_second.toFixed(1))));
    $("rates").tBodies[0].replaceChildren(...rows);
    $("lag-title").textContent = "worker group " + live.group + ": lag " + live.total_lag;
    $("lag").tBodies[0].replaceChildren(...live.lag.map(p => el("tr", {},
      el("td", {}, String(p.partition)), el("td", {}, p.committed === null ? "none" : String(p.committed)),
      el("td", {}, String(p.end)), el("td", {}, String(p.lag)))));
  }
  if (live.dead_letters !== undefined && live.dead_letters !== consoleState.deadLetters) {
    const first = consoleState.deadLetters < 0;
    consoleState.deadLetters = live.dead_letters;
    // New letters: the first page and the counts follow, unless the operator has paged further.
    if (first || consoleState.letters.length <= 50) loadLetters(true);
  }
  window.liveRendered = (window.liveRendered || 0) + 1;
  setTimeout(refreshLive, 2000);
}

$("filters").addEventListener("submit", ev => { ev.preventDefault(); loadLetters(true); });
$("clear").addEventListener("click", () => { $("filters").reset(); loadLetters(true); });
$("more").addEventListener("click", () => loadLetters(false));
$("bulk-redrive").addEventListener("click", bulkRedrive);
$("redrive-edited").addEventListener("click", () => redriveOpen(true));
$("redrive-unchanged").addEventListener("click", () => redriveOpen(false));

getJSON("/api/config").then(config => {
  consoleState.config = config;
  $("cluster").textContent = (config.embedded_broker ? "embedded broker " : "") + config.bootstrap_servers + " · " +
    config.dead_letter_topic + " → " + config.input_topic + " · group " + config.group_id;
  for (const f of ANDROID_FORMATS) $("fmt-" + f).checked = config.android_formats.includes(f);
  $("lenient").checked = config.lenient;
  refreshLive();
}).catch(e => { $("summary").textContent = String(e); });
