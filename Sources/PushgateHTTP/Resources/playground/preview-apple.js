// alert → {title, subtitle, body}: a string alert is the body.
function alertParts(aps) {
  const a = aps && aps.alert;
  if (typeof a === "string") return { body: a };
  return a && typeof a === "object" ? a : {};
}
function fact(name, value) {
  return value === undefined || value === null ? null : el("span", { class: "fact", "data-fact": name }, el("b", {}, name + " "), String(value));
}
function actionText(a) {
  if (!a || typeof a !== "object") return null;
  return a.type + (a.value !== undefined && a.value !== null ? " → " + a.value : "");
}
function drawAPNs(v) {
  if (v.aps && v.aps.event !== undefined) return drawLiveActivity(v);
  const aps = v.aps || {}, alert = alertParts(aps);
  const hasBanner = ["title", "subtitle", "body", "loc-key", "title-loc-key"].some(k => alert[k] !== undefined);
  const icon = el("div", { class: "icon" }, aps.badge !== undefined ? el("span", { class: "badge-count" }, aps.badge) : null);
  const banner = hasBanner
    ? el("div", { class: "banner" },
        el("div", { class: "app" }, icon, el("span", {}, "your app"), el("span", { style: { marginLeft: "auto" } }, "now")),
        alert.title !== undefined ? el("div", { class: "title" }, alert.title) : null,
        alert.subtitle !== undefined ? el("div", { class: "subtitle" }, alert.subtitle) : null,
        alert.body !== undefined ? el("div", { class: "text" }, alert.body) : null,
        alert["title-loc-key"] !== undefined ? el("div", { class: "title muted" }, "title-loc-key " + alert["title-loc-key"]) : null,
        alert["loc-key"] !== undefined ? el("div", { class: "text muted" }, "loc-key " + alert["loc-key"]) : null)
    : el("div", { class: "banner silent" }, el("div", { class: "app" }, icon, el("span", {}, "your app")),
        el("div", { class: "text muted" }, aps.badge !== undefined && aps.sound === undefined && !aps["content-available"]
          ? "badge only: no banner" : aps["content-available"] ? "background push: no banner, the app wakes up" : "no banner"));
  const actions = Array.isArray(v["category-actions"]) ? v["category-actions"] : [];
  const buttons = actions.length ? el("div", { class: "buttons" }, actions.map(a =>
    el("div", { class: "button" + (a.destructive ? " destructive" : ""), title: actionText(a) }, a.name === undefined ? "(" + a.type + ")" : a.name))) : null;
  return el("div", { class: "ios preview-apns" }, banner, buttons,
    el("div", { class: "facts" }, fact("sound", aps.sound), fact("badge", aps.badge), fact("category", aps.category),
      fact("thread", aps["thread-id"]), aps["content-available"] ? fact("content-available", 1) : null,
      aps["mutable-content"] ? fact("mutable-content", 1) : null, fact("tap", actionText(v["notification-action"]))));
}
function hex6(c, fallback) { return typeof c === "string" && /^[0-9A-Fa-f]{6}$/.test(c) ? "#" + c : fallback; }
function drawCarousel(v) {
  const alert = alertParts(v.aps), items = Array.isArray(v.adb_items) ? v.adb_items : [];
  const mode = v.adb_car_mode, layout = v.adb_car_layout;
  const bg = hex6(v.adb_clr_bg, "#ffffff"), titleColor = hex6(v.adb_clr_title, "#1d1d1f"), bodyColor = hex6(v.adb_clr_body, "#333333");
  return el("div", { class: "ios preview-adobe-carousel" },
    el("div", { class: "carousel banner layout-" + layout, style: { background: bg } },
      el("div", { class: "app" }, el("div", { class: "icon" }), el("span", {}, "your app · carousel")),
      el("div", { class: "title", style: { color: titleColor } }, v.adb_title_ex !== undefined ? v.adb_title_ex : alert.title),
      el("div", { class: "text", style: { color: bodyColor } }, v.adb_body_ex !== undefined ? v.adb_body_ex : alert.body),
      el("div", { class: "strip" }, items.map((item, i) => el("div", { class: "item", "data-index": i },
        image(item.img),
        el("div", { class: "txt", style: { color: bodyColor } }, item.txt !== undefined ? item.txt : ""),
        item.uri !== undefined ? el("div", { class: "uri muted", style: { fontSize: "10px" } }, item.uri) : null))),
      el("div", { class: "nav", style: { color: bodyColor } },
        el("span", {}, mode === "manual" ? "‹ swipe" : "⟳ auto-advances"),
        el("span", {}, items.length + " items"),
        el("span", {}, mode === "manual" ? "swipe ›" : ""))),
    el("div", { class: "facts" }, fact("mode", mode), fact("layout", layout), fact("title color", v.adb_clr_title),
      fact("body color", v.adb_clr_body), fact("background", v.adb_clr_bg), fact("uri", v.adb_uri),
      fact("collapsed", (alert.title || "") + " — " + (alert.body || ""))));
}
