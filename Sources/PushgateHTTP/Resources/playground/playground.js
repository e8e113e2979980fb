const $ = id => document.getElementById(id);
const editor = $("payload"), backdrop = $("backdrop");
let timer = null, sequence = 0, lastText = "", highlight = null;
// The formats --android-formats may name, from the binary's list (FORMATS, written into the page by the
// server): one checkbox each, ticked for the default ones.
const ANDROID_FORMATS = FORMATS.filter(f => f.platform === "android").map(f => f.name);
for (const name of ANDROID_FORMATS) {
  const box = document.createElement("input");
  Object.assign(box, { type: "checkbox", id: "fmt-" + name, checked: DEFAULT_ANDROID_FORMATS.includes(name) });
  const label = document.createElement("label");
  label.append(box, " " + name);
  $("android-formats").append(label);
}

// Creates an element: el("div", {class: "x"}, child, "text", ...).
function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "style") Object.assign(e.style, v); else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false)
    e.append(c instanceof Node ? c : String(c));
  return e;
}
// An image from a URL, replaced by a placeholder naming the URL when it cannot load.
function image(url, cls) {
  const ph = () => el("div", { class: "img-ph " + (cls || ""), title: url }, "image: " + url);
  if (typeof url !== "string" || !/^https?:\/\//.test(url)) return ph();
  const img = el("img", { src: url, alt: url, class: cls || "" });
  img.addEventListener("error", () => { const p = ph(); p.style.cssText = img.style.cssText; img.replaceWith(p); });
  return img;
}

function renderBackdrop() {
  const t = editor.value;
  backdrop.textContent = "";
  if (highlight && highlight.end <= t.length) {
    backdrop.append(t.slice(0, highlight.start),
      el("mark", { class: highlight.kind }, t.slice(highlight.start, highlight.end)), t.slice(highlight.end) + "\n");
  } else backdrop.append(t + "\n");
  backdrop.scrollTop = editor.scrollTop;
}
editor.addEventListener("scroll", () => { backdrop.scrollTop = editor.scrollTop; });

// Highlights the value `path` names in the editor (problem or warning `kind`) and selects it.
function showPointer(path, kind, item, message) {
  const r = locateProblem(editor.value, path, message);
  highlight = { start: r.start, end: r.end, kind, path };
  renderBackdrop();
  document.querySelectorAll("ul.problems li.active").forEach(li => li.classList.remove("active"));
  if (item) item.classList.add("active");
  const info = $("highlight-info");
  info.dataset.pointer = path;
  info.dataset.start = r.start; info.dataset.end = r.end;
  info.textContent = (r.byte !== undefined ? "highlighted byte " + r.byte
    : (r.found ? "highlighted " : "not in the payload: " + JSON.stringify(path) + "; highlighted ") + JSON.stringify(r.pointer))
    + " (characters " + r.start + "–" + r.end + ")";
  editor.focus();
  editor.setSelectionRange(r.start, r.end);
  const mark = backdrop.querySelector("mark");
  editor.scrollTop = Math.max(0, (mark ? mark.offsetTop : 0) - 60);
  backdrop.scrollTop = editor.scrollTop;
}

function request() {
  const headers = $("headers").value.split("\n").filter(l => l.trim() !== "").map(l => {
    const i = l.indexOf("="); return i < 0 ? [l, ""] : [l.slice(0, i), l.slice(i + 1)];
  });
  const record = { topic: $("topic").value, headers };
  const num = (id) => $(id).value.trim() === "" ? undefined : Number($(id).value);
  if (num("partition") !== undefined) record.partition = num("partition");
  if (num("offset") !== undefined) record.offset = num("offset");
  if (num("timestamp") !== undefined) record.timestamp_ms = num("timestamp");
  if ($("key").value !== "") record.key = $("key").value;
  const formats = ANDROID_FORMATS.filter(f => $("fmt-" + f).checked);
  return { payload: editor.value, record, android_formats: formats, lenient: $("lenient").checked };
}

async function translate() {
  const mine = ++sequence, text = editor.value, sent = JSON.stringify(request());
  const status = $("status"), error = $("request-error");
  status.textContent = "translating…";
  let answer, body;
  try {
    answer = await apiFetch("/api/translate", { method: "POST", headers: { "Content-Type": "application/json" },
      body: sent });
    body = await answer.text();
  } catch (e) { body = String(e); answer = { ok: false, status: 0 }; }
  if (mine !== sequence) return;
  if (!answer.ok) {
    error.hidden = false; error.textContent = "HTTP " + answer.status + ": " + body;
    status.textContent = "the playground refused the request"; $("records").textContent = "";
    window.renderedRequest = sent;
    return;
  }
  error.hidden = true;
  if (text !== lastText) { highlight = null; $("highlight-info").textContent = ""; renderBackdrop(); }
  lastText = text;
  renderRecords(body);
  window.renderedRequest = sent;  // what the page shows is the answer to this request (tests wait for it)
}
function schedule() { clearTimeout(timer); timer = setTimeout(translate, 300); renderBackdrop(); }
editor.addEventListener("input", () => { highlight = null; $("example").value = ""; schedule(); });
for (const id of ["topic", "partition", "offset", "key", "timestamp", "headers"]) $(id).addEventListener("input", schedule);
for (const id of [...ANDROID_FORMATS.map(f => "fmt-" + f), "lenient"]) $(id).addEventListener("change", schedule);

function problemList(problems, kind) {
  return el("ul", { class: "problems " + kind + "s" }, problems.map(p => {
    const li = el("li", { class: kind, "data-path": p.path, "data-code": p.code, "data-message": p.message },
      el("span", { class: "code" }, p.code), " ",
      el("a", { class: "path", href: "#" }, p.path === "" ? '"" (whole payload)' : p.path), " ",
      el("span", { class: "message" }, p.message));
    li.addEventListener("click", ev => { ev.preventDefault(); showPointer(p.path, kind, li, p.message); });
    return li;
  }));
}
function headerValue(headers, name) { const h = headers.find(h => h[0] === name); return h ? h[1] : null; }
function parseList(text) { try { return JSON.parse(text) || []; } catch (e) { return []; } }

function renderRecords(body) {
  const list = $("records");
  list.textContent = "";
  const raws = rawElements(body), records = JSON.parse(body);
  const dead = records.filter(r => r.format === null).length;
  $("status").textContent = (records.length - dead) + " output record(s), " + dead + " dead letter(s)";
  records.forEach((r, i) => {
    const rawValue = rawMember(raws[i], "value");
    const isDead = r.format === null;
    const box = el("article", { class: "record " + (isDead ? "dead-letter" : "output"), "data-format": r.format || "dead-letter" });
    box.append(el("div", { class: "meta" },
      el("span", { class: "badge" }, isDead ? "dead letter" : r.format),
      isDead ? el("span", { class: "dead-format" }, headerValue(r.headers, "pushgate-format") === null
        ? "stage " + headerValue(r.headers, "__connect.errors.stage")
        : "stage emit, format " + headerValue(r.headers, "pushgate-format")) : null,
      el("span", {}, "topic ", el("b", { class: "topic" }, r.topic)),
      el("span", {}, "key ", el("b", { class: "key" }, r.key === null ? "null" : JSON.stringify(r.key)))));
    const details = el("div", { class: "details" });
    const errors = headerValue(r.headers, "pushgate-errors"), warnings = headerValue(r.headers, "pushgate-warnings");
    if (errors !== null) details.append(el("h4", {}, "problems"), problemList(parseList(errors), "problem"));
    if (warnings !== null) details.append(el("h4", {}, "warnings"), problemList(parseList(warnings), "warning"));
    details.append(el("h4", {}, "headers"), el("table", { class: "headers" },
      r.headers.map(h => el("tr", {}, el("td", {}, h[0]), el("td", {}, h[1] === null ? "null" : h[1])))));
    details.append(el("h4", {}, isDead ? "value (the input, unchanged)" : "value (exact bytes)"),
      el("pre", { class: "value" }, isDead ? r.value : rawValue));
    const inner = el("div", { class: "body" });
    if (!isDead) {
      let preview;
      try { preview = drawPreview(r.format, r.value); }
      catch (e) { preview = el("div", { class: "muted" }, "no preview: " + e); }
      inner.append(el("div", { class: "preview" }, preview));
    }
    inner.append(details);
    box.append(inner);
    list.append(box);
  });
}

function drawPreview(format, v) {
  switch (format) {
    case "apns": return drawAPNs(v);
    case "adobe-carousel": return drawCarousel(v);
    case "fb-card": return drawCard(v);
    case "android-expandable": return drawAndroidExpandable(v);
    case "fcm": return drawFCM(v);
    case "webpush": return drawWebPush(v);
    default: return el("div", { class: "muted" }, "no preview for " + format);
  }
}

apiFetch("/api/examples").then(r => r.json()).then(examples => {
  const select = $("example");
  examples.forEach((text, i) => {
    let name = "example " + (i + 1);
    try { const p = JSON.parse(text); if (p && typeof p.id === "string") name = p.id; } catch (e) { name += " (not JSON)"; }
    select.append(el("option", { value: i }, name));
  });
  select.addEventListener("change", () => {
    if (select.value === "") return;
    const text = examples[Number(select.value)];
    editor.value = reindent(text);
    highlight = null; clearTimeout(timer); translate(); renderBackdrop();
  });
  if (editor.value === "" && !window.pushgateConsole) { select.value = "0"; select.dispatchEvent(new Event("change")); }
});
renderBackdrop();
