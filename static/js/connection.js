// School wifi drops. A move that cannot reach the server is kept, the pupil is
// told in a child's words, and it is sent again by itself until it arrives: its
// move id makes a second sending harmless (games.services.play answers
// "replayed"). A poll or a re-read that fails is tried again within seconds,
// not at the next safety poll. A control that is sending cannot be tapped again.
(() => {
  const RETRY_MS = 2000;
  let kept = null; // the move waiting to be sent: {path, body}
  let retry = null;

  function say(state) {
    const strip = document.getElementById("connection");
    if (!strip) return;
    strip.dataset.state = state;
    strip.hidden = !state;
    strip.querySelector("span").textContent = state ? strip.dataset[state] : "";
  }

  function sendKept() {
    retry = null;
    if (!kept) return;
    say("sending");
    fetch(kept.path, {
      method: "POST", body: kept.body, credentials: "same-origin",
      headers: { "HX-Request": "true", "HX-Current-URL": location.href },
    }).then((response) => {
      if (response.status >= 502) throw new Error("the server is not answering yet");
      return response.text().then((html) => {
        kept = null;
        const table = document.getElementById("table");
        if (!response.ok || response.headers.get("HX-Refresh") || !table) {
          location.reload();
          return;
        }
        document.dispatchEvent(new CustomEvent("numbo:own-answer"));
        htmx.swap(table, html, { swapStyle: "outerHTML" });
        say("sent");
        setTimeout(() => { if (!kept) say(""); }, 3000);
      });
    }).catch(() => {
      say("offline");
      retry = setTimeout(sendKept, RETRY_MS);
    });
  }

  function failed(event) {
    const config = event.detail.requestConfig;
    if (!config) return;
    if (config.verb === "post" && config.path.endsWith("/move/")) {
      kept = { path: config.path, body: config.formData };
      say("offline");
      if (!retry) retry = setTimeout(sendKept, RETRY_MS);
      return;
    }
    if (!kept) say("lost");
    // A re-read after a ring (or a poll) that failed: again soon, not in 20 s.
    const table = document.getElementById("table");
    if (table && config.elt === table) setTimeout(() => htmx.trigger(table, "push"), RETRY_MS);
  }

  document.addEventListener("htmx:sendError", failed);
  document.addEventListener("htmx:responseError", (event) => {
    if (event.detail.xhr.status >= 502) failed(event);
  });
  document.addEventListener("htmx:afterRequest", (event) => {
    const strip = document.getElementById("connection");
    if (event.detail.successful && strip && strip.dataset.state === "lost") say("");
  });
  // One tap, one sending: a second tap on a control whose move is under way (or
  // kept for the wifi) would cancel it and send it again.
  document.addEventListener("htmx:beforeRequest", (event) => {
    if (event.detail.requestConfig.verb !== "post") return;
    const control = event.detail.elt;
    if (kept || control.classList.contains("sending")) {
      event.preventDefault();
      return;
    }
    control.classList.add("sending");
    control.setAttribute("aria-busy", "true");
  });
  document.addEventListener("htmx:afterRequest", (event) => {
    const control = event.detail.elt;
    if (control.classList && !kept) {
      control.classList.remove("sending");
      control.removeAttribute("aria-busy");
    }
  });
  window.addEventListener("online", () => { if (kept) sendKept(); });
})();
