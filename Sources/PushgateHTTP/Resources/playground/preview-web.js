// webpush: the notification a browser shows for a declarative web push message (Safari, Firefox), drawn
// from the output's bytes: the site it comes from and opens, icon, title, body, buttons and badge.
function siteOf(url) {
  try { return new URL(url).host; } catch (e) { return null; }
}
function drawWebPush(v) {
  const n = v && typeof v.notification === "object" && v.notification !== null ? v.notification : {};
  const declarative = v && v.web_push === 8030;
  const actions = Array.isArray(n.actions) ? n.actions : [];
  const site = siteOf(n.navigate);
  const text = { dir: n.dir, lang: n.lang };
  const card = el("div", { class: "web-notification", "data-navigate": n.navigate, title: "opens " + n.navigate },
    el("div", { class: "web-head" },
      el("span", { class: "web-browser" }, "◎ browser"),
      el("span", { class: "web-site" }, site || "unknown site"),
      el("span", { class: "web-time" }, "now"),
      v.app_badge !== undefined ? el("span", { class: "web-badge", title: "app badge" }, v.app_badge) : null),
    el("div", { class: "web-main" },
      n.icon !== undefined ? el("div", { class: "web-icon" }, image(n.icon)) : null,
      el("div", { class: "web-text" },
        el("div", Object.assign({ class: "title" }, text), n.title),
        n.body !== undefined ? el("div", Object.assign({ class: "text" }, text), n.body) : null,
        el("div", { class: "web-opens" }, "opens " + n.navigate))),
    actions.length ? el("div", { class: "web-actions" }, actions.map(a =>
      el("span", { class: "web-action", "data-navigate": a.navigate, title: "opens " + a.navigate }, a.title))) : null);
  return el("div", { class: "web preview-webpush" },
    declarative ? card : el("div", { class: "muted" }, "not a declarative message: the site's service worker gets it"),
    el("div", { class: "facts" }, fact("opens", n.navigate), fact("tag", n.tag), fact("lang", n.lang), fact("dir", n.dir),
      n.silent ? fact("silent", "true") : null, n.requireInteraction ? fact("stays until clicked", "true") : null,
      fact("app badge", v.app_badge), v.mutable ? fact("mutable", "the service worker may change it") : null,
      n.data !== undefined ? fact("data", JSON.stringify(n.data)) : null));
}
