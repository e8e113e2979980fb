"use strict";
// Skips white space from i.
function ws(t, i) { while (i < t.length && " \t\r\n".includes(t[i])) i++; return i; }
// The end (exclusive) of the string starting at the quote at i.
function strEnd(t, i) {
  for (let j = i + 1; j < t.length; j++) { if (t[j] === "\\") j++; else if (t[j] === '"') return j + 1; }
  return -1;
}
// The end (exclusive) of the JSON value at i, or -1 when it is not valid enough to skip.
function valueEnd(t, i) {
  i = ws(t, i);
  if (i >= t.length) return -1;
  const c = t[i];
  if (c === '"') return strEnd(t, i);
  if (c === "{" || c === "[") {
    let depth = 0;
    for (let j = i; j < t.length; j++) {
      const d = t[j];
      if (d === '"') { j = strEnd(t, j) - 1; if (j < 0) return -1; }
      else if (d === "{" || d === "[") depth++;
      else if (d === "}" || d === "]") { depth--; if (depth === 0) return j + 1; }
    }
    return -1;
  }
  let j = i;
  while (j < t.length && !",}] \t\r\n".includes(t[j])) j++;
  return j > i ? j : -1;
}
// The members of the object at i: [{key, keyStart, start, end}] (start/end of the value).
function members(t, i) {
  const out = [];
  i = ws(t, i) + 1;
  for (;;) {
    i = ws(t, i);
    if (t[i] !== '"') return out;
    const ke = strEnd(t, i); if (ke < 0) return out;
    let key; try { key = JSON.parse(t.slice(i, ke)); } catch (e) { return out; }
    const colon = ws(t, ke); if (t[colon] !== ":") return out;
    const start = ws(t, colon + 1), end = valueEnd(t, start);
    if (end < 0) return out;
    out.push({ key, keyStart: i, start, end });
    i = ws(t, end);
    if (t[i] !== ",") return out;
    i++;
  }
}
// The elements of the array at i: [{start, end}].
function elements(t, i) {
  const out = [];
  i = ws(t, i) + 1;
  if (t[ws(t, i)] === "]") return out;
  for (;;) {
    const start = ws(t, i), end = valueEnd(t, start);
    if (end < 0) return out;
    out.push({ start, end });
    i = ws(t, end);
    if (t[i] !== ",") return out;
    i++;
  }
}
// The range of the value a JSON Pointer names in text t: {start, end, found, pointer}; when a token
// does not exist, the deepest value that does (the object a missing member belongs in).
function locatePointer(t, pointer) {
  let start = ws(t, 0), end = valueEnd(t, start);
  if (end < 0) return { start: 0, end: t.length, found: pointer === "", pointer: "" };
  if (pointer === "") return { start, end, found: true, pointer: "" };
  const tokens = pointer.split("/").slice(1).map(s => s.replace(/~1/g, "/").replace(/~0/g, "~"));
  let reached = "";
  for (const token of tokens) {
    let next = null;
    if (t[start] === "{") {
      const m = members(t, start).find(m => m.key === token);
      if (m) next = m;
    } else if (t[start] === "[" && /^(0|[1-9][0-9]*)$/.test(token)) {
      next = elements(t, start)[Number(token)] || null;
    }
    if (!next) return { start, end, found: false, pointer: reached };
    start = next.start; end = next.end;
    reached += "/" + token.replace(/~/g, "~0").replace(/\//g, "~1");
  }
  return { start, end, found: true, pointer: reached };
}
// The JSON text t indented two spaces per level; only white space outside strings changes, so
// numbers stay as written and duplicate members stay (the translation is the same).
function reindent(t) {
  let out = "", depth = 0;
  const pad = () => "\n" + "  ".repeat(depth);
  for (let i = 0; i < t.length; i++) {
    const c = t[i];
    if (c === '"') { const e = strEnd(t, i); if (e < 0) return t; out += t.slice(i, e); i = e - 1; }
    else if (" \t\r\n".includes(c)) continue;
    else if (c === "{" || c === "[") {
      const close = c === "{" ? "}" : "]", n = ws(t, i + 1);
      if (t[n] === close) { out += c + close; i = n; } else { depth++; out += c + pad(); }
    }
    else if (c === "}" || c === "]") { depth--; out += pad() + c; }
    else if (c === ",") out += "," + pad();
    else if (c === ":") out += ": ";
    else out += c;
  }
  return out;
}
// The index in t (UTF-16) of UTF-8 byte offset `byte`.
function indexOfByte(t, byte) {
  let bytes = 0, i = 0;
  for (const ch of t) {
    if (bytes >= byte) return i;
    const c = ch.codePointAt(0);
    bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
    i += ch.length;
  }
  return t.length;
}
// Where a problem is in text t: a whole-payload problem whose message names a byte (invalid_json,
// too_deep) is the token at that byte; any other, the value its JSON Pointer names.
function locateProblem(t, path, message) {
  const at = path === "" && /at byte (\d+)/.exec(message || "");
  if (!at || t.length === 0) return locatePointer(t, path);
  let start = Math.min(indexOfByte(t, Number(at[1])), t.length - 1), end = start + 1;
  if (t[start] === '"') end = strEnd(t, start) > 0 ? strEnd(t, start) : end;
  else while (end < t.length && !",:{}[] \t\r\n\"".includes(t[end]) && !",:{}[]".includes(t[start])) end++;
  return { start, end, found: true, pointer: "", byte: Number(at[1]) };
}
// The raw text of each element of the JSON array text t.
function rawElements(t) { return elements(t, ws(t, 0)).map(e => t.slice(e.start, e.end)); }
// The raw text of member `key` of the JSON object text t, or null.
function rawMember(t, key) {
  const m = members(t, ws(t, 0)).find(m => m.key === key);
  return m ? t.slice(m.start, m.end) : null;
}
