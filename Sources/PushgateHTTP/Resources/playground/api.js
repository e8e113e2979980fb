"use strict";
// Requests to the server's /api. When the server was started with --token-file, each carries
// "Authorization: Bearer TOKEN": the token comes from "#token=..." in the address (taken out of the
// address at once, so it is neither kept in history nor sent as part of a URL) or is asked for on the
// first 401, and is kept for this tab only (sessionStorage).
(function () {
  const fromHash = new URLSearchParams(location.hash.slice(1)).get("token");
  if (fromHash) {
    sessionStorage.setItem("pushgate-token", fromHash);
    history.replaceState(null, "", location.pathname + location.search);
  }
})();
let askedForToken = false;
async function apiFetch(url, init) {
  const token = sessionStorage.getItem("pushgate-token");
  const headers = Object.assign({}, (init && init.headers) || {}, token ? { Authorization: "Bearer " + token } : {});
  const answer = await fetch(url, Object.assign({}, init || {}, { headers }));
  if (answer.status === 401 && !askedForToken) {
    askedForToken = true;
    const given = prompt("This server needs its token (the content of its --token-file):");
    if (given && given.trim()) {
      sessionStorage.setItem("pushgate-token", given.trim());
      return apiFetch(url, init);
    }
  }
  return answer;
}
